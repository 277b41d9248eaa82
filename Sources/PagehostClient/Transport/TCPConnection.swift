import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One TCP connection over a non-blocking POSIX socket, with a deadline on every connect, read and write
/// (`poll` waits; nothing spins). `TCP_NODELAY` is on: the API's messages are small and latency matters.
///
/// Threads: reads (and the read buffer) belong to one thread at a time; writes may come from another thread
/// (the caller serialises writes). `shutdown()` may be called from any thread and wakes a blocked reader.
public final class TCPConnection: @unchecked Sendable {
    private let fd: Int32
    private var buffer: [UInt8] = []
    private var consumed = 0
    private let closeOnce = NSLock()
    private var isClosed = false
    public let peer: String

    /// Connects to `host:port` (a name, IPv4 or IPv6 address) before `deadline`.
    public init(host: String, port: Int, deadline: Deadline) throws(ClientError) {
        peer = "\(host):\(port)"
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let name = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        let status = getaddrinfo(name, String(port), &hints, &list)
        guard status == 0, let first = list else {
            throw .connectFailed("cannot resolve \(host): \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(list) }
        var lastError = "no address for \(host)"
        var candidate: UnsafeMutablePointer<addrinfo>? = first
        while let info = candidate {
            candidate = info.pointee.ai_next
            let fd = socket(info.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else { lastError = "socket(): \(Self.errorText(errno))"; continue }
            if Self.connect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen, deadline: deadline, error: &lastError) {
                var one: Int32 = 1
                setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
                self.fd = fd
                return
            }
            Glibc.close(fd)
            if deadline.hasPassed { throw .timedOut("connecting to \(peer)") }
        }
        throw .connectFailed("\(peer): \(lastError)")
    }

    private static func connect(_ fd: Int32, _ address: UnsafeMutablePointer<sockaddr>?, _ length: socklen_t,
                                deadline: Deadline, error: inout String) -> Bool {
        if Glibc.connect(fd, address, length) == 0 { return true }
        guard errno == EINPROGRESS else { error = errorText(errno); return false }
        var pfd = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        let ready = poll(&pfd, 1, deadline.pollMilliseconds)
        guard ready > 0 else { error = "timed out"; return false }
        var soError: Int32 = 0
        var size = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(fd, SOL_SOCKET, SO_ERROR, &soError, &size)
        guard soError == 0 else { error = errorText(soError); return false }
        return true
    }

    deinit { close() }

    /// Closes the socket (once).
    public func close() {
        closeOnce.lock()
        defer { closeOnce.unlock() }
        guard !isClosed else { return }
        isClosed = true
        Glibc.close(fd)
    }

    /// Ends both directions without releasing the descriptor, which wakes a reader blocked in `poll`.
    public func shutdown() {
        closeOnce.lock()
        defer { closeOnce.unlock() }
        guard !isClosed else { return }
        _ = Glibc.shutdown(fd, Int32(SHUT_RDWR))
    }

    // MARK: Writing

    public func write(_ bytes: [UInt8], deadline: Deadline) throws(ClientError) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n > 0 { offset += n; continue }
            let code = errno
            guard n < 0, code == EAGAIN || code == EWOULDBLOCK || code == EINTR else {
                throw .closed("sending to \(peer): \(Self.errorText(code))")
            }
            var pfd = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            guard poll(&pfd, 1, deadline.pollMilliseconds) > 0 || code == EINTR else {
                throw .timedOut("sending to \(peer)")
            }
        }
    }

    // MARK: Reading

    /// Bytes received and not yet taken.
    public var available: ArraySlice<UInt8> { buffer[consumed...] }

    /// Marks `count` available bytes as taken.
    public func consume(_ count: Int) {
        consumed += count
        if consumed == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            consumed = 0
        } else if consumed > 65536 && consumed * 2 > buffer.count {
            buffer.removeFirst(consumed)
            consumed = 0
        }
    }

    /// Waits for more bytes until `deadline`; false at end of stream.
    @discardableResult
    public func fill(deadline: Deadline) throws(ClientError) -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n > 0 {
                buffer += chunk[0..<n]
                return true
            }
            if n == 0 { return false }
            let code = errno
            guard code == EAGAIN || code == EWOULDBLOCK || code == EINTR else {
                if code == ECONNRESET { return false }
                throw .closed("reading from \(peer): \(Self.errorText(code))")
            }
            if code == EINTR { continue }
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&pfd, 1, deadline.pollMilliseconds)
            if ready == 0 { throw .timedOut("waiting for \(peer)") }
        }
    }

    /// Exactly `count` bytes.
    public func read(_ count: Int, deadline: Deadline) throws(ClientError) -> [UInt8] {
        while available.count < count {
            guard try fill(deadline: deadline) else { throw .closed("\(peer) closed the connection") }
        }
        let bytes = Array(buffer[consumed..<(consumed + count)])
        consume(count)
        return bytes
    }

    /// Bytes up to and including `delimiter`, at most `limit` of them.
    public func read(through delimiter: [UInt8], limit: Int, deadline: Deadline) throws(ClientError) -> [UInt8] {
        var searchFrom = consumed
        while true {
            if let end = Self.find(delimiter, in: buffer, from: searchFrom, to: buffer.count) {
                let bytes = Array(buffer[consumed..<end])
                consume(end - consumed)
                return bytes
            }
            guard buffer.count - consumed <= limit else { throw .protocolViolation("more than \(limit) bytes without \(delimiter)") }
            searchFrom = max(consumed, buffer.count - delimiter.count + 1)
            guard try fill(deadline: deadline) else { throw .closed("\(peer) closed the connection") }
        }
    }

    /// Everything until the peer closes.
    public func readToEnd(limit: Int, deadline: Deadline) throws(ClientError) -> [UInt8] {
        while try fill(deadline: deadline) {
            guard buffer.count - consumed <= limit else { throw .protocolViolation("body over \(limit) bytes") }
        }
        let bytes = Array(available)
        consume(bytes.count)
        return bytes
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8], from: Int, to: Int) -> Int? {
        guard to - from >= needle.count else { return nil }
        var i = from
        while i <= to - needle.count {
            if haystack[i] == needle[0] {
                var match = true
                for j in 1..<needle.count where haystack[i + j] != needle[j] { match = false; break }
                if match { return i + needle.count }
            }
            i += 1
        }
        return nil
    }

    static func errorText(_ code: Int32) -> String { String(cString: strerror(code)) }
}
