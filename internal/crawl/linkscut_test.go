package crawl

import (
	"strings"
	"testing"
)

// TestCutNote: the note names the first page cut and counts the others;
// with none cut it is the plain note, where it indexed an empty list.
func TestCutNote(t *testing.T) {
	tests := []struct {
		cut  []string
		want string
	}{
		{nil, "no longer reached"},
		{[]string{"https://a.example/"}, "perhaps linked past the first 10000 of https://a.example/"},
		{[]string{"https://a.example/", "https://b.example/", "https://c.example/"}, "of https://a.example/ or of 2 other pages cut so"},
	}
	for _, tc := range tests {
		if got := CutNote(tc.cut); !strings.HasSuffix(got, tc.want) {
			t.Errorf("CutNote(%q) = %q, want it to end with %q", tc.cut, got, tc.want)
		}
	}
}
