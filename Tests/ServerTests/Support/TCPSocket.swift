import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A blocking TCP connection to 127.0.0.1 with deadlines on reads: the transport under the test clients.
final class TCPSocket: @unchecked Sendable {
    let fd: Int32
    private(set) var buffered: [UInt8] = []

    /// Connects; `receiveBufferBytes` shrinks the kernel's receive buffer (set before connecting, so the window
    /// stays small) to make a client that stops reading stall the server quickly.
    init(port: Int, receiveBufferBytes: Int? = nil) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestFailure("socket() failed") }
        if var size = receiveBufferBytes.map(Int32.init) {
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard rc == 0 else {
            close(fd)
            throw TestFailure("connect to 127.0.0.1:\(port) failed: errno \(errno)")
        }
    }

    deinit { close(fd) }

    func write(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw TestFailure("send failed: errno \(errno)") }
            offset += n
        }
    }

    /// Reads what is available (waiting up to the deadline); false at end of stream.
    @discardableResult
    func fill(until deadline: Date) throws -> Bool {
        let remaining = deadline.timeIntervalSinceNow
        guard remaining > 0 else { throw TestFailure("timed out reading") }
        var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let ready = poll(&pfd, 1, Int32(min(remaining, 3600) * 1000))
        guard ready > 0 else { throw TestFailure("timed out reading") }
        var chunk = [UInt8](repeating: 0, count: 65536)
        let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        guard n > 0 else { return false }
        buffered += chunk[0..<n]
        return true
    }

    /// Exactly `count` bytes.
    func read(_ count: Int, deadline: Date) throws -> [UInt8] {
        while buffered.count < count {
            guard try fill(until: deadline) else { throw TestFailure("connection closed") }
        }
        let bytes = Array(buffered[0..<count])
        buffered.removeFirst(count)
        return bytes
    }

    /// Bytes up to and including `delimiter`.
    func read(upTo delimiter: [UInt8], deadline: Date) throws -> [UInt8] {
        while true {
            if let range = firstRange(of: delimiter) {
                let bytes = Array(buffered[0..<range])
                buffered.removeFirst(range)
                return bytes
            }
            guard try fill(until: deadline) else { throw TestFailure("connection closed") }
        }
    }

    /// Everything until the peer closes.
    func readToEnd(deadline: Date) throws -> [UInt8] {
        while try fill(until: deadline) {}
        defer { buffered = [] }
        return buffered
    }

    private func firstRange(of delimiter: [UInt8]) -> Int? {
        guard buffered.count >= delimiter.count else { return nil }
        for i in 0...(buffered.count - delimiter.count) where buffered[i..<(i + delimiter.count)].elementsEqual(delimiter) {
            return i + delimiter.count
        }
        return nil
    }
}
