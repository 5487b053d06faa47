package main

import (
	"fmt"
	"strings"
	"testing"
)

// TestImportFailures: the records that cannot be imported are named, the
// first maxNamed in the file whatever the order they are met in (a record
// put out of the first by an earlier one is counted under its own kind),
// the others counted a line a kind; every count reads right in the
// singular ("1 more record", "1 record could not"), where it said "1 more
// records"; and what is kept stays maxNamed lines and a count a kind, for
// a file of any number of bad records.
func TestImportFailures(t *testing.T) {
	for _, tc := range []struct {
		name    string
		add     func(f *importFailures)
		out     string
		summary string
	}{
		{
			name:    "one",
			add:     func(f *importFailures) { f.add(3, badDate, "record 3") },
			out:     "f.warc: record 3; not imported\n",
			summary: "1 record could not be imported (named above)",
		},
		{
			name: "one more",
			add: func(f *importFailures) {
				// Met last to first: the first maxNamed are named, in
				// order; record 21, put out, is counted as badTarget.
				f.add(21, badTarget, "record 21")
				for n := maxNamed; n >= 1; n-- {
					f.add(n, badDate, fmt.Sprintf("record %d", n))
				}
			},
			out:     "f.warc: record 1; not imported\n" + "f.warc: record 2; not imported\n" + "f.warc: record 3; not imported\n" + "f.warc: record 4; not imported\n" + "f.warc: record 5; not imported\n" + "f.warc: record 6; not imported\n" + "f.warc: record 7; not imported\n" + "f.warc: record 8; not imported\n" + "f.warc: record 9; not imported\n" + "f.warc: record 10; not imported\n" + "f.warc: record 11; not imported\n" + "f.warc: record 12; not imported\n" + "f.warc: record 13; not imported\n" + "f.warc: record 14; not imported\n" + "f.warc: record 15; not imported\n" + "f.warc: record 16; not imported\n" + "f.warc: record 17; not imported\n" + "f.warc: record 18; not imported\n" + "f.warc: record 19; not imported\n" + "f.warc: record 20; not imported\n" + "1 more record not imported: " + badTarget + "\n",
			summary: "21 records could not be imported (the first 20 named above)",
		},
		{
			name: "more",
			add: func(f *importFailures) {
				for n := 1; n <= maxNamed+3; n++ {
					f.add(n, []string{badDigest, badHTTP}[n%2], fmt.Sprintf("record %d", n))
				}
			},
			out:     "2 more records not imported: " + badHTTP + "\n1 more record not imported: " + badDigest + "\n",
			summary: "23 records could not be imported (the first 20 named above)",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var f importFailures
			tc.add(&f)
			var b strings.Builder
			f.write(&b, func(int) string { return "f.warc" })
			if got := b.String(); !strings.HasSuffix(got, tc.out) {
				t.Errorf("wrote\n%s\nwant it to end\n%s", got, tc.out)
			}
			if got := f.summary(); got != tc.summary {
				t.Errorf("summary %q, want %q", got, tc.summary)
			}
		})
	}
	var f importFailures
	kinds := []string{badDigest, badTooLong, badDate, badHeader, badPart, badNoTarget, badTarget, badHTTP, badPayload, badStore, badOriginal}
	for n := 200000; n >= 1; n-- {
		f.add(n, kinds[n%len(kinds)], "record")
	}
	if f.total != 200000 || len(f.named) != maxNamed || cap(f.named) > 2*maxNamed+2 || len(f.rest) != len(kinds) {
		t.Errorf("kept %d named (cap %d) and %d kinds for %d records", len(f.named), cap(f.named), len(f.rest), f.total)
	}
}
