package spec

import (
	"errors"
	"slices"
	"testing"
)

// TestUnreadableStored: a stored sentinel whose JSON form does not decode,
// given to the checker as Unreadable, keeps its name, and a sentinel that
// uses it or starts or ends with it is told it cannot be read, and why;
// it can be replaced (an edit), and nothing panics on its nil Checked.
func TestUnreadableStored(t *testing.T) {
	lost := &Stored{Unreadable: errors.New(`monitor.kind: unknown change type "most words"`)}
	const why = `monitor.kind: unknown change type "most words"`
	for _, tc := range []struct {
		src     string
		replace bool // checked as an edit of lost
		want    []string
	}{
		{"Create Sentinel Lost Using http://b.example/", false, []string{"sentinel name Lost is taken: another of your sentinels has it, whose stored form cannot be read (" + why + "); choose another name"}},
		{"Create Sentinel u Using lost", false, []string{"sentinel lost cannot be read from the store: " + why}},
		{"Create Sentinel u Using http://b.example/ From start(lost)", false, []string{"sentinel lost cannot be read from the store: " + why}},
		{"Create Sentinel u Using http://b.example/ From Now To end(lost)", false, []string{"sentinel lost cannot be read from the store: " + why}},
		{"Create Sentinel lost Using http://b.example/", true, nil},
	} {
		c := &Checker{Now: date(2026, 11, 1, 12, 0), Lookup: func(name string) *Stored {
			if name == "lost" || name == "Lost" {
				return lost
			}
			return nil
		}}
		s := mustParse(t, tc.src).Sentinels[0]
		var err error
		if tc.replace {
			_, err = c.CheckReplace("lost", s)
		} else {
			_, err = c.Check(s)
		}
		var got []string
		if el, ok := err.(ErrorList); ok {
			for _, e := range el {
				got = append(got, e.Msg)
			}
		} else if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s:\n got %q\nwant %q", tc.src, got, tc.want)
		}
	}
}
