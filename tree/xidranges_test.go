package tree_test

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/tree"
)

// TestXIDRangesAgreeWithXIDMap: a map parsed as runs says what the same
// map parsed and listed says: its length, XIDs, root, largest XID, string
// form and repeats.
func TestXIDRangesAgreeWithXIDMap(t *testing.T) {
	for _, s := range []string{
		"()", "(|7)", "(5)", "(1-15|16)", "(1-2;9-13;8;16-20;14-15|21)", "(1;2;3;4)", "(3-4;5-6;1)",
		"(1-3;3)", "(1-14;18446744073709551615)", "(18446744073709551614-18446744073709551615)", "(1-5;10-12;4)",
	} {
		t.Run(s, func(t *testing.T) { agree(t, s) })
	}
}

// agree checks ParseXIDRanges against ParseXIDMap on s.
func agree(t *testing.T, s string) {
	t.Helper()
	listed, errListed := tree.ParseXIDMap(s)
	runs, err := tree.ParseXIDRanges(s)
	if (err == nil) != (errListed == nil) || err != nil && err.Error() != errListed.Error() {
		t.Fatalf("ParseXIDRanges(%q): error %v, ParseXIDMap's %v", s, err, errListed)
	}
	if err != nil {
		return
	}
	if got := runs.Expand(); !slices.Equal(got.XIDs, listed.XIDs) || got.Next != listed.Next {
		t.Errorf("%q expands to %v, want %v", s, got, listed)
	}
	if runs.Len() != len(listed.XIDs) || runs.Root() != listed.Root() || runs.Max() != listed.Max() || runs.Next != listed.Next {
		t.Errorf("%q: Len %d Root %d Max %d Next %d, want %d %d %d %d", s, runs.Len(), runs.Root(), runs.Max(), runs.Next,
			len(listed.XIDs), listed.Root(), listed.Max(), listed.Next)
	}
	if got, want := runs.String(), listed.String(); got != want {
		t.Errorf("%q: String %s, want %s", s, got, want)
	}
	if of := tree.RangesOf(listed.XIDs, listed.Next); !of.Equal(runs) {
		t.Errorf("%q: RangesOf the listed XIDs is %s, not equal to the parsed runs", s, of)
	}
	if got, want := runs.Check(), tree.CheckXIDs(listed.XIDs); (got == nil) != (want == nil) {
		t.Errorf("%q: Check %v, CheckXIDs %v", s, got, want)
	}
	var read []tree.XID
	for c := runs.Cursor(); !c.Done(); c.Next() {
		read = append(read, c.XID())
	}
	if !slices.Equal(read, listed.XIDs) {
		t.Errorf("%q: the cursor reads %v, want %v", s, read, listed.XIDs)
	}
}

// TestXIDRangesLongMapCostsItsRuns: a map of sixty million XIDs in one run
// is parsed, compared, checked and written without listing them.
func TestXIDRangesLongMapCostsItsRuns(t *testing.T) {
	const s = "(1-60000000|60000001)"
	allocs := testing.AllocsPerRun(10, func() {
		m, err := tree.ParseXIDRanges(s)
		if err != nil || m.Len() != 60000000 || m.Check() != nil || !m.Equal(m) || m.String() != s || m.Max() != 60000000 {
			t.Fatalf("ParseXIDRanges(%q) = %s, %v", s, m, err)
		}
	})
	if allocs > 10 {
		t.Errorf("%v allocations to parse, check and write %s", allocs, s)
	}
}

func TestXIDRangesCheck(t *testing.T) {
	for _, tt := range []struct{ in, err string }{
		{"(1-10;20-30)", ""},
		{"(20-30;1-10;11)", ""},
		{"(1-10;5)", "repeats XID 5"},
		{"(5;1-10)", "repeats XID 5"},
		{"(20-30;1-10;9-21)", "repeats XID 9"},
	} {
		m, err := tree.ParseXIDRanges(tt.in)
		if err != nil {
			t.Fatal(err)
		}
		err = m.Check()
		if tt.err == "" && err != nil || tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)) {
			t.Errorf("%s: Check() = %v, want %q", tt.in, err, tt.err)
		}
	}
}

func TestXIDRangesFirstDifference(t *testing.T) {
	for _, tt := range []struct {
		a, b   string
		at     int
		ax, bx tree.XID
		ok     bool
	}{
		{"(1-10)", "(1-10)", 0, 0, 0, false},
		{"(1-10)", "(1-5;6-10)", 0, 0, 0, false},
		{"(1-10)", "(1-12)", 0, 0, 0, false},
		{"(1-10)", "(1-4;7;5-6)", 4, 5, 7, true},
		{"(3-8;1-2)", "(3-8;2)", 6, 1, 2, true},
		{"(1-100;200)", "(1-100;201)", 100, 200, 201, true},
		{"(9)", "(1-10)", 0, 9, 1, true},
	} {
		a, _ := tree.ParseXIDRanges(tt.a)
		b, _ := tree.ParseXIDRanges(tt.b)
		at, ax, bx, ok := a.FirstDifference(b)
		if at != tt.at || ax != tt.ax || bx != tt.bx || ok != tt.ok {
			t.Errorf("%s vs %s: %d %d %d %v, want %d %d %d %v", tt.a, tt.b, at, ax, bx, ok, tt.at, tt.ax, tt.bx, tt.ok)
		}
	}
}

// FuzzXIDRanges: on any string, ParseXIDRanges agrees with ParseXIDMap,
// and two maps' first difference is where their lists first differ.
func FuzzXIDRanges(f *testing.F) {
	for _, s := range []string{"(1-15|16)", "(1-2;9-13;8;16-20;14-15|21)", "(1;1)", "(0)", "(5-3)", "(1-3", "(1-3;4-6|x)"} {
		f.Add(s, "(1-4;9)")
	}
	f.Fuzz(func(t *testing.T, s, o string) {
		if len(s) > 200 || len(o) > 200 {
			return
		}
		agree(t, s)
		a, errA := tree.ParseXIDRanges(s)
		b, errB := tree.ParseXIDRanges(o)
		if errA != nil || errB != nil || a.Len() > 1<<16 || b.Len() > 1<<16 {
			return
		}
		x, y := a.Expand().XIDs, b.Expand().XIDs
		want := -1
		for i := range min(len(x), len(y)) {
			if x[i] != y[i] {
				want = i
				break
			}
		}
		at, ax, bx, ok := a.FirstDifference(b)
		if ok != (want >= 0) || ok && (at != want || ax != x[want] || bx != y[want]) {
			t.Errorf("%s vs %s: FirstDifference %d %d %d %v, want place %d", s, o, at, ax, bx, ok, want)
		}
		if a.Equal(b) != (slices.Equal(x, y) && a.Next == b.Next) {
			t.Errorf("%s vs %s: Equal %v", s, o, a.Equal(b))
		}
	})
}

// TestRangesOfRunByRun: RangesOf, which finds each run's end in one loop,
// gives the map that adding the XIDs one by one gives, on lists of runs,
// repeats, reversals and the largest XIDs.
func TestRangesOfRunByRun(t *testing.T) {
	const top = ^tree.XID(0)
	lists := [][]tree.XID{
		nil, {0}, {7}, {1, 2, 3}, {3, 2, 1}, {1, 2, 2, 3}, {top - 1, top}, {top, 0, 1}, {top - 2, top - 1, top, top},
		{5, 6, 7, 1, 2, 8, 9}, {0, 1, 2, 4, 5, 3},
	}
	rng := rand.New(rand.NewPCG(1, 61))
	for range 200 {
		var list []tree.XID
		x := tree.XID(rng.IntN(20))
		for range rng.IntN(40) {
			switch rng.IntN(4) {
			case 0:
				x = tree.XID(rng.IntN(30))
			case 1:
				x = top - tree.XID(rng.IntN(3))
			default:
				x++
			}
			list = append(list, x)
		}
		lists = append(lists, list)
	}
	for _, list := range lists {
		var b tree.RangesBuilder
		for _, x := range list {
			b.Add(x, x)
		}
		want := b.Ranges(9)
		if got := tree.RangesOf(list, 9); !got.Equal(want) || got.Len() != len(list) || got.String() != want.String() {
			t.Errorf("RangesOf(%v) = %s (%d XIDs), want %s", list, got, got.Len(), want)
		}
	}
}
