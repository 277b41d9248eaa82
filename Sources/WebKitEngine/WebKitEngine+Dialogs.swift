import CWebKitGTK
import PagehostCore

extension WebKitEngine {
    /// `script-dialog`: the page's script now waits. The dialog is kept (one reference) until it is answered;
    /// the host decides when, never inside this call.
    func hold(_ dialog: OpaquePointer, from page: WebKitPage) {
        let kind: Dialog.Kind = switch webkit_script_dialog_get_dialog_type(dialog) {
        case WEBKIT_SCRIPT_DIALOG_CONFIRM: .confirm
        case WEBKIT_SCRIPT_DIALOG_PROMPT: .prompt
        case WEBKIT_SCRIPT_DIALOG_BEFORE_UNLOAD_CONFIRM: .beforeunload
        default: .alert
        }
        let message = webkit_script_dialog_get_message(dialog).map { String(cString: $0) } ?? ""
        let defaultText = kind == .prompt ? webkit_script_dialog_prompt_get_default_text(dialog).map { String(cString: $0) } : nil
        webkit_script_dialog_ref(dialog)
        // A popup that shows a dialog before it was announced is announced now, so the dialog has a page.
        _ = page.announceIfPending(hasOpener: false)
        if let id = events?.dialogRequested(on: page.id, kind: kind, message: message, defaultText: defaultText) {
            dialogs[id] = dialog
        } else {
            // Nobody can answer it (the page is closing): dismiss it on the next loop iteration, since
            // closing a dialog inside its own signal emission is not safe.
            let bits = UInt(bitPattern: dialog)
            Task { @LoopActor in
                guard let dialog = OpaquePointer(bitPattern: bits) else { return }
                WebKitEngine.close(dialog, kind: kind, with: .dismiss)
            }
        }
    }

    public func answer(_ id: DialogID, with answer: DialogAnswer) {
        guard let dialog = dialogs.removeValue(forKey: id) else { return }
        let kind = webkit_script_dialog_get_dialog_type(dialog)
        WebKitEngine.close(dialog, kind: kind == WEBKIT_SCRIPT_DIALOG_PROMPT ? .prompt : kind == WEBKIT_SCRIPT_DIALOG_ALERT ? .alert : .confirm,
                           with: answer)
    }

    /// Sets the answer, resumes the page's script and drops Pagehost's reference.
    private static func close(_ dialog: OpaquePointer, kind: Dialog.Kind, with answer: DialogAnswer) {
        switch kind {
        case .confirm, .beforeunload:
            webkit_script_dialog_confirm_set_confirmed(dialog, answer.accept ? 1 : 0)
        case .prompt:
            // Without a text the prompt returns null, as a cancelled prompt does.
            if answer.accept { webkit_script_dialog_prompt_set_text(dialog, answer.text ?? "") }
        case .alert:
            break
        }
        webkit_script_dialog_close(dialog)
        webkit_script_dialog_unref(dialog)
    }
}
