//! Server text made safe to show, and the sizes the kit accepts.
//!
//! Everything a server sends is untrusted: a name, a message or an option title may carry
//! terminal escape sequences that clear the screen, hide text, plant links or write the
//! clipboard. [`safe_text`] turns any of it into plain text fit to print.

use std::borrow::Cow;

use crate::client::SchemaRefused;

/// The longest title, option value or option title a schema may use, in bytes (4 KiB).
/// Longer ones are refused with a [`SchemaRefused`] naming this limit.
pub(crate) const MAX_TITLE: usize = 4 * 1024;

/// The longest message or field description a client takes, in bytes (64 KiB). A longer
/// `description` is a [`SchemaRefused`]; a longer message too ([`check_message`]).
pub(crate) const MAX_MESSAGE: usize = 64 * 1024;

/// Refuses a server's message (or URL; `what` names it) longer than 64 KiB, the most a
/// client shows, with a [`SchemaRefused`] naming the limit: call it before showing any.
///
/// ```
/// use elicit_core::client::check_message;
///
/// assert!(check_message("message", "Book the 14:00 show?").is_ok());
/// let refused = check_message("url", &"a".repeat(70_000)).unwrap_err();
/// assert_eq!(refused.reason, "the url is 70000 bytes, more than the 65536 a client shows");
/// ```
pub fn check_message(what: &str, text: &str) -> Result<(), SchemaRefused> {
    if text.len() > MAX_MESSAGE {
        return Err(SchemaRefused::at(
            what,
            format!(
                "the {what} is {} bytes, more than the {MAX_MESSAGE} a client shows",
                text.len()
            ),
        ));
    }
    Ok(())
}

/// `text` made safe to print on a terminal or in a log: every escape sequence (ESC-led
/// or C1-led: CSI, OSC such as links and clipboard writes, DCS, SOS, PM, APC) is removed
/// whole; every other control character is shown as a visible symbol (`␇` for BEL, `�`
/// for a C1 control); every invisible format character (Unicode `Cf`: bidirectional
/// marks, overrides and isolates, zero-width spaces, the byte order mark, the tag
/// characters that smuggle text past a reader) is removed, except the zero-width joiner
/// and non-joiner that emoji and several scripts need. Line breaks stay (`\r\n` and the Unicode line separators become
/// `\n`), a tab becomes a space. Text with none of these is returned as it is.
///
/// ```
/// use elicit_core::client::safe_text;
///
/// assert_eq!(safe_text("Pick a seat\x1b[2J\x07"), "Pick a seat␇");
/// assert_eq!(safe_text("a\x1b]8;;https://evil.example\x1b\\link\x1b]8;;\x1b\\"), "alink");
/// assert_eq!(safe_text("two\r\nlines"), "two\nlines");
/// assert_eq!(safe_text("plain"), "plain");
/// ```
pub fn safe_text(text: &str) -> Cow<'_, str> {
    if !text.chars().any(unsafe_char) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\n' => out.push('\n'),
            '\r' => {
                if chars.peek() != Some(&'\n') {
                    out.push('\n');
                }
            }
            '\u{2028}' | '\u{2029}' => out.push('\n'),
            '\t' => out.push(' '),
            '\x1b' => skip_escape(&mut chars),
            // C1 introducers of a string (DCS, SOS, OSC, PM, APC) and of CSI.
            '\u{90}' | '\u{98}' | '\u{9d}' | '\u{9e}' | '\u{9f}' => skip_string(&mut chars),
            '\u{9b}' => skip_csi(&mut chars),
            c if invisible(c) => {}
            c if (c as u32) < 0x20 => out.push(char::from_u32(0x2400 + c as u32).unwrap_or('�')),
            '\x7f' => out.push('␡'),
            c if ('\u{80}'..='\u{9f}').contains(&c) => out.push('�'),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// Whether `c` is changed by [`safe_text`].
fn unsafe_char(c: char) -> bool {
    (c.is_control() && c != '\n') || invisible(c) || matches!(c, '\u{2028}' | '\u{2029}')
}

/// The characters that change what is shown without being seen: every Unicode format
/// character (general category `Cf`: bidirectional marks, embeddings, overrides and
/// isolates, zero-width spaces and joiners, invisible operators, the byte order mark, the
/// tag characters that can smuggle text past a reader), except the zero-width joiner and
/// non-joiner that emoji and several scripts need; and the whole tag block, unassigned
/// code points included.
fn invisible(c: char) -> bool {
    use unicode_general_category::{GeneralCategory, get_general_category};
    c > '\u{7f}'
        && !matches!(c, '\u{200c}' | '\u{200d}')
        && (('\u{e0000}'..='\u{e007f}').contains(&c)
            || get_general_category(c) == GeneralCategory::Format)
}

type Chars<'a> = std::iter::Peekable<std::str::Chars<'a>>;

/// After ESC: the rest of the sequence it starts.
fn skip_escape(chars: &mut Chars<'_>) {
    match chars.next() {
        Some('[') => skip_csi(chars),
        Some(']' | 'P' | 'X' | '^' | '_') => skip_string(chars),
        // nF sequences: intermediate bytes, then one final byte.
        Some(' '..='/') => {
            while chars.next_if(|c| (' '..='/').contains(c)).is_some() {}
            chars.next_if(|c| ('0'..='~').contains(c));
        }
        // Any other two-character sequence (ESC 7, ESC c, ...), or a lone ESC.
        _ => {}
    }
}

/// A control sequence: parameter and intermediate bytes, then a final byte.
fn skip_csi(chars: &mut Chars<'_>) {
    while chars.next_if(|c| ('0'..='?').contains(c)).is_some() {}
    while chars.next_if(|c| (' '..='/').contains(c)).is_some() {}
    chars.next_if(|c| ('@'..='~').contains(c));
}

/// A control string (OSC, DCS, ...): everything up to BEL, ESC `\` or C1 ST. An
/// unterminated one runs to the end of the text.
fn skip_string(chars: &mut Chars<'_>) {
    while let Some(c) = chars.next() {
        match c {
            '\x07' | '\u{9c}' => return,
            '\x1b' => {
                chars.next_if_eq(&'\\');
                return;
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// No control character survives, except the line breaks.
    fn clean(s: &str) -> bool {
        s.chars().all(|c| !c.is_control() || c == '\n') && !s.chars().any(invisible)
    }

    #[test]
    fn c0_controls_are_shown_as_symbols() {
        assert_eq!(safe_text("a\x07b\x08c\x00d"), "a␇b␈c␀d");
        assert_eq!(safe_text("tab\there"), "tab here");
        assert_eq!(
            safe_text("one\ntwo\r\nthree\rfour"),
            "one\ntwo\nthree\nfour"
        );
        assert_eq!(safe_text("x\u{2028}y"), "x\ny");
    }

    #[test]
    fn del_and_c1_controls_are_shown() {
        assert_eq!(safe_text("a\x7fb"), "a␡b");
        assert_eq!(safe_text("a\u{85}b\u{9c}c"), "a�b�c");
    }

    #[test]
    fn csi_sequences_are_removed_whole() {
        assert_eq!(safe_text("\x1b[2Jcleared"), "cleared");
        assert_eq!(safe_text("\x1b[8mhidden\x1b[0m"), "hidden");
        assert_eq!(safe_text("\x1b[38;5;196mred"), "red");
        assert_eq!(safe_text("\x1b[?1049hscreen"), "screen");
        // The C1 CSI, U+009B, is the same introducer in one character.
        assert_eq!(safe_text("\u{9b}2Jcleared"), "cleared");
    }

    #[test]
    fn osc_sequences_are_removed_whole() {
        // A hyperlink whose text is kept, its target dropped.
        assert_eq!(
            safe_text("\x1b]8;;https://evil.example/\x07click\x1b]8;;\x07"),
            "click"
        );
        // A clipboard write (OSC 52), terminated by ST.
        assert_eq!(safe_text("ok\x1b]52;c;cm0gLXJmIH4=\x1b\\done"), "okdone");
        // A window title, by the C1 OSC and C1 ST.
        assert_eq!(safe_text("a\u{9d}0;title\u{9c}b"), "ab");
        // Unterminated: the rest is dropped, nothing reaches the terminal.
        assert_eq!(safe_text("a\x1b]52;c;AAAA"), "a");
    }

    #[test]
    fn dcs_sos_pm_apc_and_short_sequences_are_removed() {
        assert_eq!(safe_text("a\x1bPq#0;2;0;0;0\x1b\\b"), "ab");
        assert_eq!(
            safe_text("a\x1bXsos\x1b\\b\x1b^pm\x07c\x1b_apc\x1b\\d"),
            "abcd"
        );
        assert_eq!(safe_text("a\u{90}dcs\u{9c}b"), "ab");
        assert_eq!(safe_text("a\x1bcb\x1b7c\x1b(0d"), "abcd");
        assert_eq!(safe_text("lone\x1b"), "lone");
    }

    #[test]
    fn bidi_overrides_are_removed() {
        assert_eq!(safe_text("invoice\u{202e}fdp.exe"), "invoicefdp.exe");
        assert_eq!(safe_text("a\u{2066}b\u{2069}c\u{202a}d\u{202c}"), "abcd");
    }

    /// Every invisible format character is dropped (bidi marks, zero-width spaces, word
    /// joiner, invisible operators, the Mongolian vowel separator, the byte order mark,
    /// tag characters); the zero-width joiner and non-joiner stay.
    #[test]
    fn invisible_format_characters_are_removed() {
        for c in [
            '\u{200e}',
            '\u{200f}',
            '\u{061c}',
            '\u{200b}',
            '\u{2060}',
            '\u{feff}',
            '\u{2061}',
            '\u{2062}',
            '\u{2063}',
            '\u{2064}',
            '\u{180e}',
            '\u{00ad}',
            '\u{e0000}',
            '\u{e0001}',
            '\u{e0041}',
            '\u{e007f}',
        ] {
            let text = format!("pay{c}ee");
            assert_eq!(safe_text(&text), "payee", "U+{:04X}", c as u32);
        }
        // "Ignore all previous instructions" in tag characters vanishes whole.
        let smuggled: String = "approve"
            .chars()
            .map(|c| char::from_u32(0xE0000 + c as u32).unwrap())
            .collect();
        assert_eq!(safe_text(&format!("OK{smuggled}")), "OK");
        for kept in ["\u{200d}", "\u{200c}", "👩\u{200d}💻", "é", "日本"] {
            assert_eq!(safe_text(kept), kept);
        }
    }

    #[test]
    fn plain_text_is_borrowed() {
        assert!(matches!(safe_text("Größe: 🍿\nok"), Cow::Borrowed(_)));
    }

    #[test]
    fn every_character_below_u_00a0_comes_out_clean() {
        for c in (0u32..0xa0).filter_map(char::from_u32) {
            for s in [
                format!("{c}"),
                format!("x{c}y"),
                format!("\x1b{c}z"),
                format!("\u{9b}{c}"),
            ] {
                assert!(clean(&safe_text(&s)), "{s:?} -> {:?}", safe_text(&s));
            }
        }
    }
}
