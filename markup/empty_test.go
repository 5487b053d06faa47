package markup_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/markup"
)

// TestCheckEmpty refuses an input with no element and no text, saying
// what it holds, and passes one with either, or one the parsers may read
// differently.
func TestCheckEmpty(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		want     string // the error, "" for none
	}{
		{"empty", "", "empty document: no root element"},
		{"white space", " \n\t\r\f", "empty document: no root element"},
		{"byte-order mark", "\xef\xbb\xbf\n", "empty document: no root element"},
		{"UTF-16 byte-order mark", "\xff\xfe \x00\n\x00", "empty document: no root element"},
		{"a comment", "<!-- nothing here -->\n", "empty document: it holds only a comment, no root element"},
		{"comments", "<!-- a -->\n<!-- b -->", "empty document: it holds only comments, no root element"},
		{"empty comments", "<!--><!--->", "empty document: it holds only comments, no root element"},
		{"unended comment", "<!-- a", "empty document: it holds only a comment, no root element"},
		{"XML declaration", `<?xml version="1.0"?>` + "\n", "empty document: it holds only an XML declaration, no root element"},
		{"prolog", `<?xml version="1.0"?><!-- a --><?pi x?><!DOCTYPE r><!-- b -->`, "empty document: it holds only an XML declaration, comments, a processing instruction and a DOCTYPE, no root element"},
		{"UTF-16 comment", "<\x00!\x00-\x00-\x00-\x00-\x00>\x00", "empty document: it holds only a comment, no root element"},
		{"html DOCTYPE", "<!doctype html>\n", "empty document: it holds only a DOCTYPE, no root element"},
		{"text", "hello", ""},
		{"text after a comment", "<!-- a -->hello", ""},
		{"text after an HTML comment end", "<!-- a --!> hello -->", ""},
		{"text after an empty comment", "<!-->hello-->", ""},
		{"entity", "&nbsp;", ""},
		{"element", "<!-- a --><r/>", ""},
		{"element after a declaration", `<?xml version="1.0"?><r/>`, ""},
		{"end tag", "</p>", ""},
		{"internal subset", "<!DOCTYPE r [<!ELEMENT r ANY>]>", ""},
		{"processing instruction with >", "<?pi a>b?>", ""},
		// To HTML a bogus comment and a comment; to XML a processing
		// instruction, the root r and a comment.
		{"processing instruction with > before ?> in a comment", "<?pi x> <!-- ?><r/><!-- -->", ""},
		{"unended processing instruction", "<?xml version='1.0'", ""},
		{"CDATA", "<![CDATA[x]]>", ""},
		{"Latin-1 no-break space", "\xa0", ""},
		{"no-break space alone", "\u00a0\n", "empty document: no root element"},
		{"no-break space after a comment", "<!-- a -->\u00a0", ""},
		{"ideographic space between comments", "<!-- a -->\u3000<!-- b -->", ""},
	} {
		err := markup.CheckEmpty([]byte(tc.in))
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.want != "" && (err == nil || err.Error() != tc.want):
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		case tc.want != "" && !errors.Is(err, markup.ErrEmpty):
			t.Errorf("%s: %v does not wrap ErrEmpty", tc.name, err)
		}
	}
}

// TestCheckEmptyManyComments: each comment's end is looked for before the
// next comment, not in the whole rest of the input, so that an input of
// many comments costs its length, not its length squared: this one of a
// megabyte of comments and eight of white space is checked at once, where
// a search of the rest for each comment would run for hours (and fail
// go test's -timeout).
func TestCheckEmptyManyComments(t *testing.T) {
	in := strings.Repeat("<!--a-->", 1<<17) + strings.Repeat(" ", 8<<20)
	want := "empty document: it holds only comments, no root element"
	if err := markup.CheckEmpty([]byte(in)); err == nil || err.Error() != want {
		t.Errorf("%v, want %q", err, want)
	}
}
