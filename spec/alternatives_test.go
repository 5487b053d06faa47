package spec

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// TestUsingTooManyPages: a Using clause of more than maxAlternatives
// pages joined by OR is refused at its OR, as one of more combinations of
// pages joined by AND is at its AND; it was accepted, and 40 000 pages
// cost seconds of checking (the repeats and the normal form compare every
// pair). maxAlternatives pages are taken. The error stands at the
// operator, where it stood at the AND's first operand.
func TestUsingTooManyPages(t *testing.T) {
	c := &Checker{Now: date(2003, 6, 1, 12, 0)}
	using := func(n int, op string) string {
		urls := make([]string, n)
		for i := range urls {
			urls[i] = fmt.Sprintf("https://p%d.example/", i)
		}
		return "Create Sentinel s Using " + strings.Join(urls, " "+op+" ")
	}
	if ch, err := c.Check(mustParse(t, using(maxAlternatives, "OR")).Sentinels[0]); err != nil || len(ch.URLs) != maxAlternatives {
		t.Errorf("%d pages joined by OR: %v", maxAlternatives, err)
	}
	for _, tc := range []struct {
		name, src, op string
	}{
		{"pages joined by OR", using(maxAlternatives+1, "OR"), "OR"},
		{"combinations joined by AND", "Create Sentinel s Using (" + strings.TrimPrefix(using(33, "OR"), "Create Sentinel s Using ") +
			") AND (" + strings.TrimPrefix(strings.ReplaceAll(using(33, "OR"), "https://p", "https://q"), "Create Sentinel s Using ") + ")", "AND"},
	} {
		_, err := c.Check(mustParse(t, tc.src).Sentinels[0])
		var e *Error
		if !errors.As(err, &e) || !strings.Contains(e.Msg, fmt.Sprintf("more than %d combinations", maxAlternatives)) || e.Found != tc.op {
			t.Errorf("%s: %v (found %q), want the combinations refused at an %s", tc.name, err, foundOf(e), tc.op)
			continue
		}
		// At the operator, which the editor marks.
		if !strings.HasPrefix(tc.src[e.Pos.Offset:], tc.op+" ") {
			t.Errorf("%s: error at %s, where the source reads %.20q, want the %s", tc.name, e.Pos, tc.src[e.Pos.Offset:], tc.op)
		}
	}
}

// foundOf returns e's Found, "" for no error.
func foundOf(e *Error) string {
	if e == nil {
		return ""
	}
	return e.Found
}
