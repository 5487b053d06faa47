package web

import (
	"strconv"
	"strings"
	"testing"
)

// TestHistoryVersionsKept: a history says how many versions it keeps in
// words that agree with the count ("1 version kept", not "1 versions").
func TestHistoryVersionsKept(t *testing.T) {
	for _, c := range []struct {
		total int
		want  string
	}{
		{0, "No version kept."},
		{1, "1 version kept."},
		{2, "2 versions kept."},
		{1000, "1000 versions kept."},
	} {
		if got := (&historyData{Total: c.total}).Kept(); got != c.want {
			t.Errorf("Kept() of %d versions = %q, want %q", c.total, got, c.want)
		}
	}
	e := newReadAsTextEnv(t)
	if page := e.get("/resources/" + strconv.FormatInt(e.res, 10)); !strings.Contains(page, "<p>3 versions kept.</p>") {
		t.Errorf("history of 3 versions does not say so:\n%s", page)
	}
}
