package chat

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/vigil-web/vigil/render"
)

// A message's text is plain text: its change records quote the watched
// page, whose words whoever writes the page chooses. Slack, Discord and
// Mattermost read markup in the text they are sent, so a page could write
// a link whose label names another URL ("<https://evil|https://shop>",
// "[https://shop](https://evil)") or notify a whole channel ("<!channel>",
// "@here"). plainText writes the text so that each of them shows it as
// written instead; the other services, Telegram's plain text included,
// read no markup and are sent it unchanged.

// plainText returns text, for the chat service named, written so that the
// service shows it as written rather than reading links or mentions in it.
func plainText(service, text string) string {
	switch service {
	case "slack":
		// Slack's own escaping: its links and mentions are between
		// < and >, which no longer open or close them.
		return slackEscaper.Replace(text)
	case "discord", "mattermost":
		return quietMentions(markdownEscaper.Replace(text))
	}
	return text
}

var (
	slackEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")
	// markdownEscaper escapes the brackets of a Markdown link's label
	// (and the backslash that would escape them back), so that
	// "[label](url)" is shown as written, the URL as a link of its own.
	markdownEscaper = strings.NewReplacer(`\`, `\\`, "[", `\[`, "]", `\]`)
)

// zeroWidthSpace, after the "@" of a mention, leaves the word as it reads
// but no longer a mention.
const zeroWidthSpace = "\u200b"

// quietMentions puts a zero-width space after the "@" of each mention in
// text: an "@" that starts a word (not one inside an address, as in
// a@example.org) and is followed by a letter, a digit or "_", as
// "@everyone", "@here", "@channel", "@all" and "@name" are.
func quietMentions(text string) string {
	if !strings.Contains(text, "@") {
		return text
	}
	var b strings.Builder
	prev := ' '
	for i, r := range text {
		b.WriteRune(r)
		if r == '@' && !isWordRune(prev) {
			if next, _ := utf8.DecodeRuneInString(text[i+1:]); isWordRune(next) {
				b.WriteString(zeroWidthSpace)
			}
		}
		prev = r
	}
	return b.String()
}

func isWordRune(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }

// clip cuts text, written by plainText for the chat service named, to at
// most limit runes, the last of them "…", without cutting an escape in
// two: a cut that would end inside Slack's entity ("&am") or after the
// backslash of a Markdown escape ends before it. Nor does it cut a
// character as a reader sees it (render.ClusterCutBefore).
func clip(service, text string, limit int) string {
	r := []rune(text)
	if len(r) <= limit {
		return text
	}
	head := string(r[:render.ClusterCutBefore(r, limit-1)])
	switch service {
	case "slack":
		if amp := strings.LastIndexByte(head, '&'); amp >= 0 && !strings.Contains(head[amp:], ";") {
			head = head[:amp]
		}
	case "discord", "mattermost":
		if trailing := len(head) - len(strings.TrimRight(head, `\`)); trailing%2 == 1 {
			head = head[:len(head)-1]
		}
	}
	return head + "…"
}
