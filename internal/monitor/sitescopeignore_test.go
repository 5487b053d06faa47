package monitor

import (
	"slices"
	"testing"

	"github.com/vigil-web/vigil/spec"
)

// TestSiteIgnores: the Ignores a page leaves unused without naming them
// are those every change type of which has a scope the page lacks; what
// every page lacks keeps an Ignore only when some change type that holds
// it has a scope found somewhere, or none.
func TestSiteIgnores(t *testing.T) {
	const (
		side    = `scope css "div.side" matches nothing`
		main    = `scope css "div.main" matches nothing`
		ad      = `ignore css "span.ad" matches nothing`
		time    = `ignore css "span.time" matches nothing`
		table2  = "scope table 2 matches nothing"
		scoped  = `any change In css "div.side" Ignore css "span.ad"`
		twoCT   = `any change In css "div.side" Ignore css "span.ad" OR keywords {x} In css "div.main" Ignore css "span.ad" Ignore css "span.time"`
		noScope = `any change In css "div.side" Ignore css "span.ad" OR keywords {x} Ignore css "span.ad"`
	)
	for _, tc := range []struct {
		name, monitor  string
		misses, unused []string
		common, alone  []string
	}{
		{"the scope found, the Ignore not named", scoped, []string{table2}, []string{table2}, []string{table2}, []string{table2}},
		{"the scope found, the Ignore named", scoped, []string{ad}, []string{ad}, []string{ad}, []string{ad}},
		{"the scope lacked", scoped, []string{side, table2}, []string{side, ad, table2}, []string{side, ad}, []string{side}},
		{"one of two scopes lacked", twoCT, []string{side}, []string{side}, []string{ad}, []string{ad}},
		{"both scopes lacked", twoCT, []string{main, table2, side}, []string{main, time, table2, side, ad}, []string{main, time, side, ad}, []string{main, side}},
		{"a change type without a scope", noScope, []string{side}, []string{side}, []string{side, ad}, []string{side, ad}},
	} {
		x := parseMonitor(t, tc.monitor)
		igs := ignoresOf(x)
		if got := igs.unusedOn(slices.Clone(tc.misses)); !slices.Equal(got, tc.unused) {
			t.Errorf("%s: unusedOn(%q) = %q, want %q", tc.name, tc.misses, got, tc.unused)
		}
		if got := igs.alone(slices.Clone(tc.common)); !slices.Equal(got, tc.alone) {
			t.Errorf("%s: alone(%q) = %q, want %q", tc.name, tc.common, got, tc.alone)
		}
	}
}

// parseMonitor returns the Monitor clause of a sentinel that states
// monitor.
func parseMonitor(t *testing.T, monitor string) spec.Expr {
	t.Helper()
	s, err := spec.ParseSentinel("", []byte("Create Sentinel s Using http://a.example/ Monitor "+monitor))
	if err != nil {
		t.Fatal(err)
	}
	return s.Monitor.X
}
