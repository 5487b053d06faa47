package spec

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// TestNameTakenMessage: a sentinel name another of the owner's
// sentinels has is told in one wording wherever it is found (the check,
// the store's write in the editor, the API and the command line),
// naming the sentinel that has it as far as it is known. Before, the
// check and the command line said "is not unique: the owner already
// has ...", and the editor and the API "is taken: your sentinel ...".
func TestNameTakenMessage(t *testing.T) {
	why := errors.New("monitor.kind: unknown")
	for _, tc := range []struct {
		name   string
		holder NameHolder
		want   string
	}{
		{"shop", NameHolder{Name: "Shop", ID: 7}, "sentinel name shop is taken: your sentinel Shop (sentinel 7) has it; choose another name"},
		{"shop", NameHolder{Name: "Shop"}, "sentinel name shop is taken: your sentinel Shop has it; choose another name"},
		{"shop", NameHolder{}, "sentinel name shop is taken: another of your sentinels has it; choose another name"},
		{"shop", NameHolder{Name: "Shop", At: Position{Filename: "a.ssl", Line: 3, Column: 17}},
			"sentinel name shop is taken: your sentinel Shop at a.ssl:3:17 has it; choose another name"},
		{"lost", NameHolder{Unreadable: why}, "sentinel name lost is taken: another of your sentinels has it, whose stored form cannot be read (monitor.kind: unknown); choose another name"},
		{strings.Repeat("n", 200), NameHolder{Name: strings.Repeat("N", 200), ID: 1},
			"sentinel name " + short(strings.Repeat("n", 200)) + " is taken: your sentinel " + short(strings.Repeat("N", 200)) + " (sentinel 1) has it; choose another name"},
	} {
		if got := NameTakenMessage(tc.name, tc.holder); got != tc.want {
			t.Errorf("NameTakenMessage(%q, %+v)\n= %q, want\n  %q", tc.name, tc.holder, got, tc.want)
		}
	}
}

// TestNameTakenInFile: a sentinel whose name an earlier sentinel of the
// checked files has is told where that one is ("your sentinel s at
// dup.ssl:1:17 has it"), by CheckFile and across the files of one
// checker: the message said "your sentinel s has it", as of a stored
// sentinel, though nothing was stored and the store may hold none.
func TestNameTakenInFile(t *testing.T) {
	c := &Checker{Now: time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)}
	first, err := Parse("first.ssl", []byte("Create Sentinel t Using http://t.example/\n"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.CheckFile(first); err != nil {
		t.Fatal(err)
	}
	f, err := Parse("dup.ssl", []byte("Create Sentinel s Using http://a.example/\nCreate Sentinel S Using http://b.example/\nCreate Sentinel T Using http://c.example/\n"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.CheckFile(f)
	var list ErrorList
	if !errors.As(err, &list) || len(list) != 2 {
		t.Fatalf("CheckFile: %v, want two errors", err)
	}
	for i, want := range []string{
		"sentinel name S is taken: your sentinel s at dup.ssl:1:17 has it; choose another name",
		"sentinel name T is taken: your sentinel t at first.ssl:1:17 has it; choose another name",
	} {
		if list[i].Msg != want || !list[i].NameTaken {
			t.Errorf("error %d: %q (name taken %v), want %q", i, list[i].Msg, list[i].NameTaken, want)
		}
	}
}
