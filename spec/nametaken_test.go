package spec

import (
	"errors"
	"strings"
	"testing"
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
		{"lost", NameHolder{Unreadable: why}, "sentinel name lost is taken: another of your sentinels has it, whose stored form cannot be read (monitor.kind: unknown); choose another name"},
		{strings.Repeat("n", 200), NameHolder{Name: strings.Repeat("N", 200), ID: 1},
			"sentinel name " + short(strings.Repeat("n", 200)) + " is taken: your sentinel " + short(strings.Repeat("N", 200)) + " (sentinel 1) has it; choose another name"},
	} {
		if got := NameTakenMessage(tc.name, tc.holder); got != tc.want {
			t.Errorf("NameTakenMessage(%q, %+v)\n= %q, want\n  %q", tc.name, tc.holder, got, tc.want)
		}
	}
}
