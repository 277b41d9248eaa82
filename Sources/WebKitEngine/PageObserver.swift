import CWebKitGTK
import PagehostCore

/// What Pagehost reads from inside a page, where WebKit has no notification for it: a script in an
/// isolated world (page scripts can neither see nor fake it) that posts to a message handler of that world.
///
/// Today it reports the theme colour: WebKitGTK only computes `theme-color` in accelerated compositing,
/// which Pagehost turns off (hardware acceleration NEVER), so the observer reads `<meta name=theme-color>`
/// itself, honouring `media`, normalising any CSS colour to `#rrggbb` through a canvas, and following changes.
///
/// The message only says "look again": WebKit delivers a popup's messages to the content manager of its
/// opener (measured with 2.50), so a message cannot tell which page sent it. The engine then reads
/// `__pagehostThemeColor` from the isolated world of each page of that session.
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
          const report = () => {
            const colour = themeColor();
            if (colour !== globalThis.__pagehostThemeColor) {
              globalThis.__pagehostThemeColor = colour;
              handler.postMessage('themeColor');
            }
          };
          report();
          new MutationObserver(report).observe(document.documentElement,
            { subtree: true, childList: true, attributes: true, attributeFilter: ['content', 'name', 'media'] });
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
    static let readThemeColor = "return globalThis.__pagehostThemeColor ?? null"
}
