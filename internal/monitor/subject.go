package monitor

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/vigil-web/vigil/render"
)

// A message's subject is one line a mail client, a chat service or a feed
// reader shows whole: "[Vigil] name: " and the message's entries (the
// change of each page, a digest's count, a page's failure), joined by
// "; ". It is capped at maxSubject characters, so that a sentinel on a
// hundred pages ("Using A AND B AND ...") does not write one of thousands:
// the entries that do not fit are counted ("… and 3 more"), and an entry
// too long alone has its page cut in the middle, keeping the URL's host
// and end, never what it says of it ("fails since …", "works again"): a
// failure and a recovery of one page never have one subject. The name is
// cut at maxSubjectName characters, so that it leaves room for them. Every subject is made
// by subjectLine, and reused as it is as the title of a chat message or a
// webhook's payload.

// maxSubject bounds a message's subject, in characters (runes).
const maxSubject = 200

// subjectLine returns the subject of a message about sentinel name that
// tells entries, capped at maxSubject characters. The name is cut at
// maxSubjectName characters. Then come as many entries as fit whole, then
// "; … and N more" for the others; if the first does not fit whole, its
// page is cut in the middle (clipMiddle) so that what it says of the page
// fits whole; only an entry with no page, or one whose words alone leave
// no room for a page, has its words cut (clip).
func subjectLine(name string, entries ...subjectEntry) string {
	head := "[Vigil] " + clip(name, maxSubjectName) + ": "
	texts := make([]string, len(entries))
	for i, e := range entries {
		texts[i] = e.page + e.what
	}
	if s := head + strings.Join(texts, "; "); utf8.RuneCountInString(s) <= maxSubject {
		return s
	}
	for k := len(texts) - 1; k > 0; k-- {
		s := head + strings.Join(texts[:k], "; ") + "; … " + moreEntries(len(texts)-k)
		if utf8.RuneCountInString(s) <= maxSubject {
			return s
		}
	}
	if len(entries) == 0 {
		return clip(head, maxSubject)
	}
	first := entries[0]
	tail := ""
	if len(entries) > 1 {
		tail = "; … " + moreEntries(len(entries)-1)
	}
	room := maxSubject - utf8.RuneCountInString(head+first.what+tail)
	if first.page != "" && room >= minSubjectPage {
		return head + clipMiddle(first.page, room) + first.what + tail
	}
	if len(entries) > 1 {
		tail = " " + moreEntries(len(entries)-1)
	}
	if first.page != "" {
		first.page = clipMiddle(first.page, minSubjectPage)
	}
	return clip(head+first.page+first.what, maxSubject-utf8.RuneCountInString(tail)) + tail
}

// subjectEntry is one entry of a subject: the page it is of (its URL or
// its name among the sentinel's pages; "" for none), which a subject too
// long cuts in the middle, and what it says of it, written after the page
// (" fails since …", ": 1 text changed"), which is kept whole.
type subjectEntry struct{ page, what string }

// maxSubjectName bounds the sentinel's name in a subject, in characters,
// so that a long name leaves room for what the message says.
const maxSubjectName = 60

// minSubjectPage is the fewest characters of a page a subject keeps when
// it cuts the page to keep what the entry says whole.
const minSubjectPage = 24

// clipMiddle returns s cut to n characters at most, "…" in the middle:
// its beginning up to the end of a URL's host (or half of n if the host is
// longer), and as much of its end as fits, from where a character starts
// (charStart), both cut at the edges of characters as a reader sees them
// (render.ClusterCutBefore and ClusterCutAfter, which keep within n). It
// is s if s has n characters or fewer.
func clipMiddle(s string, n int) string {
	all := []rune(s)
	if len(all) <= n {
		return s
	}
	if n < 2 {
		return clip(s, n)
	}
	front := (n - 1) / 2
	if i := strings.Index(s, "://"); i >= 0 {
		host := i + 3
		if j := strings.IndexAny(s[host:], "/?#"); j >= 0 {
			host += j + 1 // the host and the "/" after it
		} else {
			host = len(s)
		}
		if h := utf8.RuneCountInString(s[:host]); h < front {
			front = h
		}
	}
	back := n - 1 - front
	from := render.ClusterCutAfter(all, charStart(all, len(all)-back))
	return string(all[:render.ClusterCutBefore(all, front)]) + "…" + string(all[from:])
}

// moreEntries counts the entries a subject leaves out: "and 3 more".
func moreEntries(n int) string {
	return fmt.Sprintf("and %d more", n)
}

// clip returns s cut to n characters at most, "…" its last: at the last
// white space that leaves at least half of them, else at the edge of a
// character as a reader sees it (render.ClusterCutBefore: never inside
// one's UTF-8 bytes, nor between a letter and its accent or an emoji and
// its skin tone), the white space and punctuation before the cut dropped. It is s if s has n characters or fewer.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	all := []rune(s)
	keep := max(n-1, 0) // room for "…"
	cut := render.ClusterCutBefore(all, keep)
	for i := keep; i > keep/2; i-- {
		if unicode.IsSpace(all[i]) { // all[keep] exists: s is longer
			cut = i
			break
		}
	}
	out := strings.TrimRightFunc(string(all[:cut]), func(c rune) bool { return unicode.IsSpace(c) || unicode.IsPunct(c) })
	return out + "…"
}
