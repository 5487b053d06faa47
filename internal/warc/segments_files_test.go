package warc_test

import (
	"errors"
	"strconv"
	"testing"

	"github.com/vigil-web/vigil/internal/warc"
)

// TestJoinerAcrossFiles: the segments of a record written across files
// (the reason WARC 1.1 section 6.7 has them) are joined when one Joiner
// reads the files in turn, File naming each, in whatever order the files
// are given: a continuation read before its first segment is kept until
// it comes (the files of a crawl given out of their order were two
// errors for one record, the continuation's and the first segment's,
// and no word of the order); a chain left incomplete, or broken, by the
// last file is one error naming the record's id and its first segment's
// file, and the file of a segment in another.
func TestJoinerAcrossFiles(t *testing.T) {
	type rec struct {
		file string
		r    *warc.Record
	}
	cases := map[string]struct {
		in       []rec
		maxBlock int64    // Joiner.MaxBlock
		want     []string // the records out, by id and block, then the errors
	}{
		"joined across three files": {
			in: []rec{{"a.warc", plain("p", "x")}, {"a.warc", segment("s", 1, "ab", 0)},
				{"b.warc", segment("s", 2, "cd", 0)}, {"c.warc", plain("q", "y")}, {"c.warc", segment("s", 3, "e", 5)}},
			want: []string{"p x", "q y", "s abcde"},
		},
		"the last segment in no file": {
			in:   []rec{{"a.warc", segment("s", 1, "ab", 0)}, {"b.warc", segment("s", 2, "cd", 0)}},
			want: []string{"error a.warc: record at 1 (s): split in segments, segment 2 the last read, in b.warc, without WARC-Segment-Total-Length: the segments after it are missing"},
		},
		"a segment missing in the next file": {
			in:   []rec{{"a.warc", segment("s", 1, "ab", 0)}, {"b.warc", segment("s", 3, "cd", 6)}},
			want: []string{"error a.warc: record at 1 (s): segment 3 (b.warc: record at 2) where segment 2 was due: a segment is missing"},
		},
		"a total wrong in the next file": {
			in:   []rec{{"a.warc", segment("s", 1, "ab", 0)}, {"b.warc", segment("s", 2, "cd", 5)}},
			want: []string{"error a.warc: record at 1 (s): WARC-Segment-Total-Length 5 (b.warc: record at 2), but the segments hold 4 bytes"},
		},
		"the continuation's file given first": {
			in: []rec{{"b.warc", segment("s", 2, "cd", 0)}, {"b.warc", segment("s", 3, "e", 5)},
				{"a.warc", plain("p", "x")}, {"a.warc", segment("s", 1, "ab", 0)}},
			want: []string{"p x", "s abcde"},
		},
		"the middle file given first": {
			in: []rec{{"b.warc", segment("s", 2, "cd", 0)}, {"a.warc", segment("s", 1, "ab", 0)},
				{"c.warc", plain("q", "y")}, {"c.warc", segment("s", 3, "e", 5)}},
			want: []string{"q y", "s abcde"},
		},
		"the last file given first": {
			in: []rec{{"c.warc", segment("s", 3, "e", 5)}, {"a.warc", segment("s", 1, "ab", 0)},
				{"b.warc", segment("s", 2, "cd", 0)}},
			want: []string{"s abcde"},
		},
		"the continuation first in one file": {
			in:   []rec{{"a.warc", segment("s", 2, "cd", 4)}, {"a.warc", plain("p", "x")}, {"a.warc", segment("s", 1, "ab", 0)}},
			want: []string{"p x", "s abcd"},
		},
		"the continuation's file first, a segment missing": {
			in:   []rec{{"b.warc", segment("s", 3, "e", 5)}, {"a.warc", segment("s", 1, "ab", 0)}},
			want: []string{"error a.warc: record at 2 (s): segment 3 (b.warc: record at 1) where segment 2 was due: a segment is missing"},
		},
		"the continuation's file first, a segment given twice": {
			in:   []rec{{"b.warc", segment("s", 2, "cd", 0)}, {"b.warc", segment("s", 2, "cd", 4)}, {"a.warc", segment("s", 1, "ab", 0)}},
			want: []string{"error a.warc: record at 3 (s): segment 2 (b.warc: record at 2) again, where segment 3 was due: a segment given twice"},
		},
		"the continuation's file first, too long": {
			in:       []rec{{"b.warc", segment("s", 2, "cdefgh", 8)}, {"a.warc", segment("s", 1, "ab", 0)}, {"a.warc", plain("p", "x")}},
			maxBlock: 5,
			want:     []string{"p x", "error b.warc: record at 1 (s-2): segments of more than 5 bytes: block longer than the reader takes"},
		},
		"a continuation of no file before": {
			in:   []rec{{"a.warc", plain("p", "x")}, {"b.warc", segment("s", 2, "cd", 2)}},
			want: []string{"p x", "error b.warc: record at 2 (s-2): continuation segment 2 of s, whose first segment is in none of the files"},
		},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			j := &warc.Joiner{MaxBlock: c.maxBlock}
			var out, errs []string
			note := func(err error) {
				var se *warc.SegmentError
				if !errors.As(err, &se) {
					t.Fatalf("%v is no SegmentError", err)
				}
				errs = append(errs, "error "+se.File+": "+err.Error())
			}
			for i, r := range c.in {
				j.File = r.file
				whole, err := j.Add(r.r, i+1, "record at "+strconv.Itoa(i+1))
				if err != nil {
					note(err)
				}
				if whole != nil {
					out = append(out, whole.ID()+" "+string(whole.Block))
				}
			}
			for _, err := range j.End() {
				note(err)
			}
			got := append(out, errs...)
			if len(got) != len(c.want) {
				t.Fatalf("got %q, want %q", got, c.want)
			}
			for i := range got {
				if got[i] != c.want[i] {
					t.Errorf("%d: got %q,\nwant %q", i, got[i], c.want[i])
				}
			}
		})
	}
}
