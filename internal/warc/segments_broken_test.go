package warc_test

import (
	"errors"
	"strconv"
	"testing"

	"github.com/vigil-web/vigil/internal/warc"
)

// TestJoinerBrokenChainOnce: a record whose chain of segments breaks (a
// segment past the limit, one out of order, one given twice) is one
// error, naming its first segment; the continuations of it after the
// break are its own, not records "whose first segment is not in the file
// before it", as they were named: a video of ten segments past the
// limit at its eighth was four errors, three of them saying wrongly that
// its first segment was missing. Likewise the continuations of a record
// whose first segment was not read are one error, the first's, where each
// was one (the files of a crawl given out of their order).
func TestJoinerBrokenChainOnce(t *testing.T) {
	cases := map[string]struct {
		in   []*warc.Record
		max  int64
		want []string // the records out, by id and block, then the errors
	}{
		"past the limit": {
			max: 5,
			in: []*warc.Record{segment("a", 1, "ab", 0), segment("a", 2, "cd", 0), segment("a", 3, "ef", 0),
				segment("a", 4, "gh", 0), plain("b", "y"), segment("a", 5, "ij", 10)},
			want: []string{"b y", "error record 1 (a): segments of more than 5 bytes: block longer than the reader takes"},
		},
		"out of order": {
			in: []*warc.Record{segment("a", 1, "ab", 0), segment("a", 3, "ef", 0), segment("a", 2, "cd", 0),
				segment("a", 4, "gh", 8), plain("b", "y")},
			want: []string{"b y", "error record 1 (a): segment 3 (record 2) where segment 2 was due: a segment is missing"},
		},
		"a segment given twice": {
			in: []*warc.Record{segment("a", 1, "ab", 0), segment("a", 2, "cd", 0), segment("a", 2, "cd", 0),
				segment("a", 3, "ef", 6), plain("b", "y")},
			want: []string{"b y", "error record 1 (a): segment 2 (record 3) again, where segment 3 was due: a segment given twice"},
		},
		"continuations of no first segment read": {
			in:   []*warc.Record{segment("a", 3, "ef", 0), plain("b", "y"), segment("a", 4, "gh", 0), segment("a", 5, "ij", 10)},
			want: []string{"b y", "error record 1 (a-3): continuation segment 3 of a, whose first segment is not in the file"},
		},
		"a continuation of another record still an error": {
			in: []*warc.Record{segment("a", 1, "ab", 0), segment("a", 3, "ef", 0), segment("c", 2, "cd", 2)},
			want: []string{"error record 1 (a): segment 3 (record 2) where segment 2 was due: a segment is missing",
				"error record 3 (c-2): continuation segment 2 of c, whose first segment is not in the file"},
		},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			j := &warc.Joiner{MaxBlock: c.max}
			var out, errs []string
			for i, r := range c.in {
				whole, err := j.Add(r, i+1, "record "+strconv.Itoa(i+1))
				if err != nil {
					var se *warc.SegmentError
					if !errors.As(err, &se) {
						t.Fatalf("%v is no SegmentError", err)
					}
					errs = append(errs, "error "+err.Error())
				}
				if whole != nil {
					out = append(out, whole.ID()+" "+string(whole.Block))
				}
			}
			for _, err := range j.End() {
				errs = append(errs, "error "+err.Error())
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
