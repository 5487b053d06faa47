package webtable

import (
	"errors"
	"testing"
	"time"
)

// The operators refuse two tables that identify a node differently, naming
// the node of the newer table at fault.
func TestIdentityAcrossTables(t *testing.T) {
	jan := time.Date(2001, 1, 15, 0, 0, 0, 0, time.UTC)
	feb := jan.AddDate(0, 1, 0)
	tests := []struct {
		name   string
		change func(old, cur *Table)
		field  string
		msg    string
	}{
		{"node id with two URLs", func(_, cur *Table) { cur.Nodes[1].URL = "http://www.pfizer.com/b0.html" }, "nodes[1].url",
			`node "b0" has URL "http://www.pfizer.com/b0.html" here and "http://www.panacea.gov/b0.html" in table "Drugs": a node id names one URL`},
		{"URL with two node ids", func(_, cur *Table) {
			cur.Nodes[2].ID, cur.Tuples[0].Nodes[2], cur.Links[1].To = "u9", "u9", "u9"
		}, "nodes[2].id",
			`URL "http://www.panacea.gov/u0.html" is node "u9" here and node "u0" in table "Drugs": a URL has one node id`},
		{"version with two dates", func(_, cur *Table) { cur.Nodes[1].Modified = feb }, "nodes[1].modified",
			`node "b0" version "1" is dated 2001-02-15T00:00:00Z here and 2001-01-15T00:00:00Z in table "Drugs": a version has one date`},
		{"version with and without a date", func(_, cur *Table) { cur.Nodes[1].Modified = time.Time{} }, "nodes[1].modified",
			`node "b0" version "1" is dated none here and 2001-01-15T00:00:00Z in table "Drugs": a version has one date`},
		{"one URL and date, two versions", func(_, cur *Table) { cur.Nodes[1].Version = "2" }, "nodes[1].version",
			`node "b0" is version "2" here and "1" in table "Drugs" with the same URL and date 2001-01-15T00:00:00Z: identical nodes have one version id`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w1, w2 := valid(), valid()
			w2.Name = "New Drugs"
			tc.change(w1, w2)
			_, err := Diff(w1, w2, nil)
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("Diff = %v, want an *Error", err)
			}
			if e.Table != "New Drugs" || e.Field != tc.field || e.Msg != tc.msg {
				t.Errorf("Diff = %+v\nwant field %q msg %q", e, tc.field, tc.msg)
			}
			if _, err := Join(w1, w2); err == nil {
				t.Error("Join accepted the tables")
			}
			if _, err := LeftOuterJoin(w1, w2); err == nil {
				t.Error("LeftOuterJoin accepted the tables")
			}
			if _, err := RightOuterJoin(w1, w2); err == nil {
				t.Error("RightOuterJoin accepted the tables")
			}
		})
	}
	if _, err := Diff(nil, valid(), nil); err == nil || err.Error() != "webtable: nil table" {
		t.Errorf("Diff(nil, ...) = %v", err)
	}
}

// Identity rests on (URL, date), as the seed says, and not on content: a page
// whose content changed under the same Last-Modified date keeps its version
// and is unchanged for Diff. A page without a date gets whatever version the
// caller's fallback gives it (a content hash, say), and Diff compares those.
func TestIdentityLimits(t *testing.T) {
	w1, w2 := valid(), valid()
	d, err := Diff(w1, w2, nil) // u0's content may well differ: nothing tells
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Modified)+len(d.Added)+len(d.Deleted)+len(d.Mod.Tuples)+len(d.Plus.Tuples)+len(d.Minus.Tuples) != 0 {
		t.Errorf("same identity, delta %+v", d)
	}
	for _, w := range []*Table{w1, w2} {
		w.Nodes[2].Modified = time.Time{}
	}
	w1.Nodes[2].Version, w2.Nodes[2].Version = "sha256:aa", "sha256:bb"
	d, err = Diff(w1, w2, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := d.Change("u0"); got != Modified {
		t.Errorf("undated page with two content versions: %v, want modified", got)
	}
}
