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
		want := collapseSpace(s, isXMLSpaceByte) != s
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
		if got, want := needsCollapse(s), collapseSpace(s, isXMLSpaceByte) != s; got != want {
			t.Fatalf("needsCollapse(%q) = %v, want %v", s, got, want)
		}
	})
}
