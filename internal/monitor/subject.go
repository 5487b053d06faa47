package monitor

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// A message's subject is one line a mail client, a chat service or a feed
// reader shows whole: "[Vigil] name: " and the message's entries (the
// change of each page, a digest's count, a page's failure), joined by
// "; ". It is capped at maxSubject characters, so that a sentinel on a
// hundred pages ("Using A AND B AND ...") does not write one of thousands:
// the entries that do not fit are counted ("… and 3 more"), and an entry
// too long alone is cut at a word, ending with "…". Every subject is made
// by subjectLine, and reused as it is as the title of a chat message or a
// webhook's payload.

// maxSubject bounds a message's subject, in characters (runes).
const maxSubject = 200

// subjectLine returns the subject of a message about sentinel name that
// tells entries, capped at maxSubject characters: as many entries as fit
// whole, then "… and N more" for the others; the first alone, cut at a
// word (clip), if it does not fit whole.
func subjectLine(name string, entries ...string) string {
	head := "[Vigil] " + name + ": "
	if s := head + strings.Join(entries, "; "); utf8.RuneCountInString(s) <= maxSubject {
		return s
	}
	for k := len(entries) - 1; k > 0; k-- {
		s := head + strings.Join(entries[:k], "; ") + "; … " + moreEntries(len(entries)-k)
		if utf8.RuneCountInString(s) <= maxSubject {
			return s
		}
	}
	tail := ""
	if len(entries) > 1 {
		tail = " " + moreEntries(len(entries)-1)
	}
	first := ""
	if len(entries) > 0 {
		first = entries[0]
	}
	return clip(head+first, maxSubject-utf8.RuneCountInString(tail)) + tail
}

// moreEntries counts the entries a subject leaves out: "and 3 more".
func moreEntries(n int) string {
	return fmt.Sprintf("and %d more", n)
}

// clip returns s cut to n characters at most, "…" its last: at the last
// white space that leaves at least half of them, else at a character
// (never inside one's UTF-8 bytes), the white space and punctuation
// before the cut dropped. It is s if s has n characters or fewer.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	all := []rune(s)
	keep := max(n-1, 0) // room for "…"
	cut := keep
	for i := keep; i > keep/2; i-- {
		if unicode.IsSpace(all[i]) { // all[keep] exists: s is longer
			cut = i
			break
		}
	}
	out := strings.TrimRightFunc(string(all[:cut]), func(c rune) bool { return unicode.IsSpace(c) || unicode.IsPunct(c) })
	return out + "…"
}
