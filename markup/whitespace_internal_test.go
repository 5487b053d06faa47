package markup

import (
	"strings"
	"testing"
)

func TestNeedsCollapse(t *testing.T) {
	for _, s := range []string{
		"a", "a b", "abcdefgh ijklmnop", "abcdefg  hijk", "abcdefgh  ijk", "abcdefg\nh", "é à  ü",
		"0123456 89012345 7890", "0123456  89", "01234567\t", "x\x7f\x80\xff y", "a b c d e f g h i j k l",
		strings.Repeat("ab ", 20) + " x", "é\u00a0\u00a0x",
	} {
		want := collapseSpace(s, &xmlSpace) != s
		if got := needsCollapse(s); got != want {
			t.Errorf("needsCollapse(%q) = %v, want %v", s, got, want)
		}
	}
}

func FuzzNeedsCollapse(f *testing.F) {
	f.Add("a  b")
	f.Add("abcdefg  h")
	f.Fuzz(func(t *testing.T, s string) {
		s = strings.Trim(s, " \t\n\r")
		for i := 0; i < len(s); i++ {
			if s[i] < 0x20 && !isXMLSpaceByte(s[i]) {
				return // not in XML text
			}
		}
		if got, want := needsCollapse(s), collapseSpace(s, &xmlSpace) != s; got != want {
			t.Fatalf("needsCollapse(%q) = %v, want %v", s, got, want)
		}
	})
}

func TestPlainWord(t *testing.T) {
	for _, c := range []struct {
		s    string
		want bool
	}{
		{"abcdefgh", true}, {"abc\ndefg", true}, {"\t\t\n\n    ", true}, {"abcdefg\r", false},
		{"\x00bcdefgh", false}, {"abcdefg\x1f", false}, {"abcdefg\x80", false}, {"é.......", false},
		{"\x7f~ !\"#$%", true}, {"\n\x0b\n\n\n\n\n\n", false}, {"\x08bcdefgh", false},
	} {
		w := uint64(0)
		for i := 7; i >= 0; i-- {
			w = w<<8 | uint64(c.s[i])
		}
		if got := plainWord(w); got != c.want {
			t.Errorf("plainWord(%q) = %v, want %v", c.s, got, c.want)
		}
	}
	for b := 0; b < 256; b++ {
		for pos := 0; pos < 8; pos++ {
			buf := []byte("abcdefgh")
			buf[pos] = byte(b)
			w := uint64(0)
			for i := 7; i >= 0; i-- {
				w = w<<8 | uint64(buf[i])
			}
			want := b < 0x80 && (b >= 0x20 || b == '\t' || b == '\n')
			if plainWord(w) != want {
				t.Fatalf("plainWord with byte %#x at %d = %v", b, pos, !want)
			}
		}
	}
}

// collapseRef is the obvious implementation of collapseSpace.
func collapseRef(s string, space *[256]bool) string {
	var words []string
	word := ""
	for i := 0; i < len(s); i++ {
		if space[s[i]] {
			if word != "" {
				words = append(words, word)
			}
			word = ""
			continue
		}
		word += s[i : i+1]
	}
	if word != "" {
		words = append(words, word)
	}
	return strings.Join(words, " ")
}

func TestCollapseSpace(t *testing.T) {
	for _, c := range []struct{ in, xml, html string }{
		{"", "", ""},
		{"  ", "", ""},
		{"a", "a", "a"},
		{" a  b\t\tc\n", "a b c", "a b c"},
		{"a\fb", "a\fb", "a b"},
		{"\u00a0a\u00a0", "\u00a0a\u00a0", "\u00a0a\u00a0"},
		{"a b c", "a b c", "a b c"},
	} {
		if got := collapseSpace(c.in, &xmlSpace); got != c.xml {
			t.Errorf("XML %q: %q, want %q", c.in, got, c.xml)
		}
		if got := collapseSpace(c.in, &htmlSpace); got != c.html {
			t.Errorf("HTML %q: %q, want %q", c.in, got, c.html)
		}
	}
}

func FuzzCollapseSpace(f *testing.F) {
	f.Add(" a  b\t\fc ")
	f.Fuzz(func(t *testing.T, s string) {
		for _, sp := range []*[256]bool{&xmlSpace, &htmlSpace} {
			if got, want := collapseSpace(s, sp), collapseRef(s, sp); got != want {
				t.Fatalf("collapseSpace(%q) = %q, want %q", s, got, want)
			}
		}
	})
}
