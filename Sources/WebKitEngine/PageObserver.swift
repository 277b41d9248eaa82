import CWebKitGTK
import PagehostCore

/// What Pagehost reads from inside a page, where WebKit has no notification for it: a script in an
/// isolated world (page scripts can neither see nor fake it) that posts to a message handler of that world.
///
/// It reports the theme colour, and the scroll position and content size. WebKitGTK only computes
/// `theme-color` in accelerated compositing, which Pagehost turns off (hardware acceleration NEVER), so the
/// observer reads `<meta name=theme-color>` itself, honouring `media` and normalising any CSS colour to
/// `#rrggbb` through a canvas. Changes are batched to one report per animation frame.
///
/// The message only says "look again": WebKit delivers a popup's messages to the content manager of its
/// opener (measured with 2.50), so a message cannot tell which page sent it. The engine then reads
/// `__pagehostState` from the isolated world of each page of that session.
enum PageObserver {
    static let world = "pagehost"
    static let handler = "pagehost"

    static let script = """
        (() => {
          const handler = window.webkit.messageHandlers.\(handler);
          const probe = document.createElement('canvas').getContext('2d');
          const normalise = (text) => {
            // An invalid colour leaves fillStyle unchanged: probing from two starting values tells.
            probe.fillStyle = '#000000'; probe.fillStyle = text; const a = probe.fillStyle;
            probe.fillStyle = '#ffffff'; probe.fillStyle = text; const b = probe.fillStyle;
            return a === b && a.startsWith('#') ? a : null;
          };
          const themeColor = () => {
            for (const meta of document.querySelectorAll('meta[name="theme-color" i]')) {
              const media = meta.getAttribute('media');
              if (media && !matchMedia(media).matches) continue;
              const colour = normalise((meta.getAttribute('content') || '').trim());
              if (colour) return colour;
            }
            return null;
          };
          const scroll = () => {
            const root = document.scrollingElement || document.documentElement;
            return { x: scrollX, y: scrollY, contentWidth: root.scrollWidth, contentHeight: root.scrollHeight };
          };
          let scheduled = false;
          const report = () => {
            scheduled = false;
            const state = { themeColor: themeColor(), scroll: scroll() };
            if (JSON.stringify(state) !== JSON.stringify(globalThis.__pagehostState)) {
              globalThis.__pagehostState = state;
              handler.postMessage('state');
            }
          };
          // At most one report per frame, however many scroll or DOM changes come in.
          const soon = () => { if (!scheduled) { scheduled = true; requestAnimationFrame(report); } };
          report();
          new MutationObserver(soon).observe(document.head || document.documentElement,
            { subtree: true, childList: true, attributes: true, attributeFilter: ['content', 'name', 'media'] });
          new ResizeObserver(soon).observe(document.documentElement);
          addEventListener('scroll', soon, { passive: true });
          addEventListener('resize', soon, { passive: true });
        })();
        """

    /// A content manager for one page, with the observer installed. The caller owns the returned reference.
    static func makeContentManager() -> UnsafeMutablePointer<WebKitUserContentManager> {
        let manager = webkit_user_content_manager_new()!
        let userScript = webkit_user_script_new_for_world(
            script, WEBKIT_USER_CONTENT_INJECT_TOP_FRAME, WEBKIT_USER_SCRIPT_INJECT_AT_DOCUMENT_END, world, nil, nil)
        webkit_user_content_manager_add_script(manager, userScript)
        webkit_user_script_unref(userScript)
        _ = webkit_user_content_manager_register_script_message_handler_in_world(manager, handler, world)
        return manager
    }

    /// Reads what the observer saw in a page's isolated world.
    static let readState = "return globalThis.__pagehostState ?? null"
}
