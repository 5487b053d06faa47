package markup

import (
	"bytes"
	"fmt"
	"strings"
)

// CheckEmpty returns an error wrapping ErrEmpty if data holds no element
// and no text: nothing but white space (Unicode's, as bytes.TrimSpace
// trims it, when it holds nothing else; the white space of HTML and XML,
// ASCII's, around the others, so that a no-break space beside a comment
// is a page's text), comments, processing instructions (an XML
// declaration among them) and a DOCTYPE, after a byte-order mark. The
// error says which of those it holds. ParseHTML reads such an input as an empty page
// (an html element with an empty head and body) and ParseXML refuses it
// with a *SyntaxError at its end; a caller that is handed a file to
// compare, as vigil diff is, calls CheckEmpty first, so that neither
// happens. The parsers do not call it: a page served empty is a version
// of the page.
//
// The check is lexical and errs towards content: a construct the HTML
// parser and the XML parser could read differently (a processing
// instruction with a > before its ?>, a DOCTYPE with an internal subset,
// a CDATA section) ends it, and the parser decides. A comment without its
// end runs to the end of the input, as the HTML parser reads it.
func CheckEmpty(data []byte) error {
	b := data
	if decoded, bom, err := decodeBOM(b); bom {
		if err != nil {
			return nil
		}
		b = decoded
	} else if decoded, ok, err := decodeUnmarkedUTF16(b); ok {
		if err != nil {
			return nil
		}
		b = decoded
	}
	if len(bytes.TrimSpace(b)) == 0 {
		return fmt.Errorf("%w: no root element", ErrEmpty)
	}
	holds, ok := holdsOnly(b)
	if !ok {
		return nil
	}
	if holds == "" {
		return fmt.Errorf("%w: no root element", ErrEmpty)
	}
	return fmt.Errorf("%w: it holds only %s, no root element", ErrEmpty, holds)
}

// holdsOnly reports whether b (decoded) holds no element and no text, and
// if so what it holds instead, as a phrase ("a comment", "an XML
// declaration and comments"), empty for nothing but white space.
func holdsOnly(b []byte) (string, bool) {
	var kinds []string         // in the order they first appear
	counts := map[string]int{} // occurrences of each kind
	add := func(kind string) {
		if counts[kind] == 0 {
			kinds = append(kinds, kind)
		}
		counts[kind]++
	}
	for {
		b = bytes.TrimLeft(b, " \t\n\f\r")
		switch {
		case len(b) == 0:
			return holdsPhrase(kinds, counts), true
		case bytes.HasPrefix(b, []byte("<!--")):
			add("comment")
			b = b[4:]
			switch {
			case bytes.HasPrefix(b, []byte(">")):
				// <!--> and <!---> are empty comments to HTML.
				b = b[1:]
			case bytes.HasPrefix(b, []byte("->")):
				b = b[2:]
			default:
				b = afterCommentEnd(b)
			}
		case bytes.HasPrefix(b, []byte("<?")):
			// The HTML parser ends it at the first >, the XML parser at
			// the first ?>: where the two differ, the parser decides.
			k := bytes.IndexByte(b, '>')
			if k < 0 || b[k-1] != '?' {
				return "", false
			}
			if rest, ok := bytes.CutPrefix(b, []byte("<?xml")); ok && len(rest) > 0 && (rest[0] == '?' || isXMLSpaceByte(rest[0])) {
				add("XML declaration")
			} else {
				add("processing instruction")
			}
			b = b[k+1:]
		case len(b) >= 9 && bytes.EqualFold(b[:9], []byte("<!DOCTYPE")):
			k := bytes.IndexByte(b, '>')
			if k < 0 || bytes.IndexByte(b[:k], '[') >= 0 {
				return "", false
			}
			add("DOCTYPE")
			b = b[k+1:]
		default:
			return "", false
		}
	}
}

// afterCommentEnd returns what follows the end of a comment whose text
// begins b: the first --> or --!> (which the HTML parser takes for one),
// or nothing when the comment has no end.
func afterCommentEnd(b []byte) []byte {
	end := len(b)
	if k := bytes.Index(b, []byte("-->")); k >= 0 {
		end = k + 3
	}
	// Only before that end: a search of the whole rest for each of many
	// comments would cost the input's length squared.
	if k := bytes.Index(b[:end], []byte("--!>")); k >= 0 && k+4 < end {
		end = k + 4
	}
	return b[end:]
}

// holdsPhrase says kinds, counted in counts, as a phrase: "a comment",
// "comments", "an XML declaration, a DOCTYPE and comments".
func holdsPhrase(kinds []string, counts map[string]int) string {
	var words []string
	for _, kind := range kinds {
		switch {
		case counts[kind] > 1:
			words = append(words, kind+"s")
		case kind == "XML declaration":
			words = append(words, "an "+kind)
		default:
			words = append(words, "a "+kind)
		}
	}
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}
