package main

import (
	"errors"
	"fmt"
	"testing"

	"github.com/vigil-web/vigil"
)

// TestImportSummary: the last line of vigil import warc says how many
// versions it imported and records it skipped, of which kinds, the most
// first; after a commit whose
// outcome the store does not know (vigil.ErrCommitUnknown, wrapped:
// PostgreSQL's connection lost as it committed, which the command run
// end to end on SQLite cannot reach) it says that it imported them all
// or none, not that it imported them. Any other error leaves the line as
// it is: the error says what the store holds.
func TestImportSummary(t *testing.T) {
	unknown := fmt.Errorf("commit: %w; the store holds all 2 versions or none: importing the file again adds what it lacks", vigil.ErrCommitUnknown)
	for _, tc := range []struct {
		name    string
		n       int
		skipped skips
		err     error
		want    string
	}{
		{"imported", 2, skips{"request": 1}, nil, "imported 2 versions; skipped 1 record: 1 request"},
		{"none", 0, nil, nil, "imported 0 versions; skipped 0 records"},
		{"kinds, the most first", 3, skips{"metadata": 2, "request": 10, "warcinfo": 2, skipStale: 1}, nil,
			"imported 3 versions; skipped 15 records: 10 request, 2 metadata, 2 warcinfo, 1 " + skipStale},
		{"failed", 0, skips{"request": 3}, errors.New("file cut short"), "imported 0 versions; skipped 3 records: 3 request"},
		{"commit unknown", 2, nil, unknown, "imported 2 versions or none (the commit's outcome is not known); skipped 0 records"},
		{"one unknown", 1, skips{"metadata": 1}, unknown, "imported 1 version or none (the commit's outcome is not known); skipped 1 record: 1 metadata"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := importSummary(tc.n, tc.skipped, tc.err); got != tc.want {
				t.Errorf("importSummary(%d, %v, %v) = %q, want %q", tc.n, tc.skipped, tc.err, got, tc.want)
			}
		})
	}
}
