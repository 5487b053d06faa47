package webtable

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// valid returns a small well-formed table: a0 links to b0, which links to
// u0.
func valid() *Table {
	return &Table{
		Name: "Drugs",
		Nodes: []Node{
			fixtureNode("a0", "1"), fixtureNode("b0", "1"), fixtureNode("u0", "1"),
		},
		Links: []Link{
			{ID: "l1", From: "a0", To: "b0", Label: "AIDS", Type: Local},
			{ID: "l2", From: "b0", To: "u0", Label: "Indavir", Type: Local},
		},
		Tuples: []Tuple{
			{ID: "t1", Nodes: []NodeID{"a0", "b0", "u0"}, Links: []LinkID{"l1", "l2"}},
			{ID: "t2", Nodes: []NodeID{"a0", "b0"}, Links: []LinkID{"l1"}},
		},
	}
}

func TestValidate(t *testing.T) {
	if err := valid().Validate(); err != nil {
		t.Fatalf("valid table: %v", err)
	}
	if err := (&Table{}).Validate(); err != nil {
		t.Errorf("empty table: %v", err)
	}
	tests := []struct {
		name   string
		change func(*Table)
		tuple  TupleID
		field  string
		msg    string
	}{
		{"empty node id", func(w *Table) { w.Nodes[1].ID = "" }, "", "nodes[1].id", "empty node id"},
		{"empty version", func(w *Table) { w.Nodes[1].Version = "" }, "", "nodes[1].version", `node "b0": empty version id`},
		{"empty URL", func(w *Table) { w.Nodes[2].URL = "" }, "", "nodes[2].url", `node "u0": empty URL`},
		{"node twice in the pool", func(w *Table) { w.Nodes[2].ID = "a0" }, "", "nodes[2].id", `node "a0" is also nodes[0]: the pool holds a node once`},
		{"URL with two node ids", func(w *Table) { w.Nodes[2].URL = w.Nodes[0].URL }, "", "nodes[2].url",
			`node "u0" has the URL "http://www.panacea.gov/a0.html" of node "a0" (nodes[0]): a URL has one node id`},
		{"empty link id", func(w *Table) { w.Links[0].ID = "" }, "", "links[0].id", "empty link id"},
		{"link twice in the pool", func(w *Table) { w.Links[1].ID = "l1" }, "", "links[1].id", `link "l1" is also links[0]: the pool holds a link once`},
		{"link from nowhere", func(w *Table) { w.Links[1].From = "x" }, "", "links[1].from", `link "l2": node "x" is not in the node pool`},
		{"link to nowhere", func(w *Table) { w.Links[1].To = "x" }, "", "links[1].to", `link "l2": node "x" is not in the node pool`},
		{"link type", func(w *Table) { w.Links[0].Type = "external" }, "", "links[0].type", `link "l1": unknown link type "external" (want interior, local or global)`},
		{"empty tuple id", func(w *Table) { w.Tuples[1].ID = "" }, "", "tuples[1].id", "empty tuple id"},
		{"tuple id twice", func(w *Table) { w.Tuples[1].ID = "t1" }, "t1", "tuples[1].id", "tuple id also used by tuples[0]"},
		{"tuple without nodes", func(w *Table) { w.Tuples[1].Nodes = nil; w.Tuples[1].Links = nil }, "t2", "tuples[1].nodes", "no nodes: a tuple has at least one"},
		{"unknown node", func(w *Table) { w.Tuples[0].Nodes[2] = "u9" }, "t1", "tuples[0].nodes[2]", `node "u9" is not in the node pool`},
		{"node twice in a tuple", func(w *Table) { w.Tuples[1].Nodes[1] = "a0" }, "t2", "tuples[1].nodes[1]", `node "a0" is named twice`},
		{"unknown link", func(w *Table) { w.Tuples[0].Links[1] = "l9" }, "t1", "tuples[0].links[1]", `link "l9" is not in the link pool`},
		{"link twice in a tuple", func(w *Table) { w.Tuples[0].Links[1] = "l1" }, "t1", "tuples[0].links[1]", `link "l1" is named twice`},
		{"link from outside the tuple", func(w *Table) { w.Tuples[1].Nodes = []NodeID{"b0", "u0"}; w.Tuples[1].Links = []LinkID{"l1"} },
			"t2", "tuples[1].links[0]", `link "l1" leads from node "a0", which is not in the tuple`},
		{"link to outside the tuple", func(w *Table) { w.Tuples[1].Links = []LinkID{"l2"} },
			"t2", "tuples[1].links[0]", `link "l2" leads to node "u0", which is not in the tuple`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w := valid()
			tc.change(w)
			err := w.Validate()
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("Validate = %v, want an *Error", err)
			}
			if e.Table != "Drugs" || e.Tuple != tc.tuple || e.Field != tc.field || e.Msg != tc.msg {
				t.Errorf("Validate = %+v\nwant tuple %q field %q msg %q", e, tc.tuple, tc.field, tc.msg)
			}
		})
	}
}

func TestErrorMessage(t *testing.T) {
	w := valid()
	w.Tuples[0].Nodes[2] = "u9"
	want := `webtable: table "Drugs": tuple "t1": tuples[0].nodes[2]: node "u9" is not in the node pool`
	if err := w.Validate(); err == nil || err.Error() != want {
		t.Errorf("error = %v\nwant    %s", err, want)
	}
	w = valid()
	w.Nodes[0].Version = ""
	want = `webtable: table "Drugs": nodes[0].version: node "a0": empty version id`
	if err := w.Validate(); err == nil || err.Error() != want {
		t.Errorf("error = %v\nwant    %s", err, want)
	}
}

// build makes a table from the notes' fixture notation: one tuple a line,
// its id and then its node ids; a node written with a trailing ' is version
// 2 of that id, otherwise version 1. URLs are derived from the ids, and each
// version has its own last-modification date (15 Jan 2001 for version 1, 15
// Feb 2001 for version 2, the seed's polling times), so the identity rule
// (same URL and date, same version) holds across tables.
func build(name string, lines ...string) *Table {
	t := &Table{Name: name, Nodes: []Node{}}
	pool := map[NodeID]bool{}
	for _, line := range lines {
		f := strings.Fields(line)
		tu := Tuple{ID: TupleID(f[0])}
		for _, w := range f[1:] {
			id, ver := strings.TrimSuffix(w, "'"), VersionID("1")
			if id != w {
				ver = "2"
			}
			tu.Nodes = append(tu.Nodes, NodeID(id))
			if !pool[NodeID(id)] {
				pool[NodeID(id)] = true
				t.Nodes = append(t.Nodes, fixtureNode(NodeID(id), ver))
			}
		}
		t.Tuples = append(t.Tuples, tu)
	}
	return t
}

func fixtureNode(id NodeID, ver VersionID) Node {
	date := time.Date(2001, 1, 15, 0, 0, 0, 0, time.UTC)
	if ver == "2" {
		date = time.Date(2001, 2, 15, 0, 0, 0, 0, time.UTC)
	}
	return Node{ID: id, Version: ver, URL: "http://www.panacea.gov/" + string(id) + ".html", Modified: date}
}

// F1, the notes' "mini-panacea" (§6.2), modelled on the paper's running
// example.
var (
	f1Old = []string{
		"t1 a0 b0 u0 d0 k0",    // AIDS / Indavir
		"t2 a0 b0 u1 d1 k1",    // AIDS / Ritonavir
		"t3 a0 b1 u5 d2 k2",    // Cancer / Beta Carotene
		"t4 a0 b2 u2 d3 k3",    // Heart / Hirudin
		"t5 a0 b4 u4 d5 k6",    // Impotence / Vasomax at pfizer.com
		"t6 a0 b4 u7 u8 d6 k7", // drug X through page u8
		"t7 a0 b3 u6 d4 k5",    // Diabetes (b3 removed)
		"t8 a0 b5 u10 d12 k12", // Alzheimer
	}
	f1New = []string{
		"s1 a0' b0 u0 d0 k0",
		"s2 a0' b0 u1 d1 k1",
		"s3 a0' b1' u5' d2' k2'", // all modified
		"s4 a0' b2 u2' d3' k3'",
		"s5 a0' b2 u3 d7 k4",     // Heart / Niacin (new)
		"s6 a0' b4' u12 d8 k8",   // Vasomax now local
		"s7 a0' b4' u7' d6 k7",   // drug X, u8 gone
		"s8 a0' b4' u13 d9 k9",   // Viagra (new)
		"s9 a0' b5' u11 d10 k10", // Alzheimer / Tolcapone (new)
	}
)

// tableText writes a table in the fixture notation.
func tableText(w *Table) string {
	ver := map[NodeID]VersionID{}
	for _, n := range w.Nodes {
		ver[n.ID] = n.Version
	}
	var b strings.Builder
	for _, tu := range w.Tuples {
		b.WriteString(string(tu.ID))
		for _, n := range tu.Nodes {
			b.WriteString(" " + string(n))
			if ver[n] == "2" {
				b.WriteString("'")
			}
		}
		b.WriteString("\n")
	}
	return b.String()
}
