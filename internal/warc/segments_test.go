package warc_test

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/internal/warc"
)

// segment returns segment n of the record with id (the origin when n is
// 1, a continuation after), its block, and the total length when it is
// the last (total > 0).
func segment(id string, n int, block string, total int) *warc.Record {
	h := warc.Header{
		{Name: warc.FieldType, Value: warc.TypeResponse},
		{Name: warc.FieldRecordID, Value: warc.BracketID(id)},
		{Name: warc.FieldDate, Value: "2026-01-01T00:00:00Z"},
		{Name: warc.FieldTargetURI, Value: "http://example.com/"},
		{Name: warc.FieldBlockDigest, Value: warc.Digest([]byte(block))},
		{Name: warc.FieldSegmentNumber, Value: strconv.Itoa(n)},
	}
	if n > 1 {
		h[0].Value = warc.TypeContinuation
		h[1].Value = warc.BracketID(id + "-" + strconv.Itoa(n))
		h = append(h, warc.Field{Name: warc.FieldSegmentOriginID, Value: warc.BracketID(id)})
	}
	if total > 0 {
		h = append(h, warc.Field{Name: warc.FieldSegmentTotalLength, Value: strconv.Itoa(total)})
	}
	return &warc.Record{Version: "WARC/1.1", Header: h, Block: []byte(block)}
}

// renumber sets rec's WARC-Segment-Number to n.
func renumber(rec *warc.Record, n string) *warc.Record {
	rec.Header.Set(warc.FieldSegmentNumber, n)
	return rec
}

func plain(id, block string) *warc.Record {
	return &warc.Record{Version: "WARC/1.1", Header: warc.Header{
		{Name: warc.FieldType, Value: warc.TypeResponse},
		{Name: warc.FieldRecordID, Value: warc.BracketID(id)},
		{Name: warc.FieldDate, Value: "2026-01-01T00:00:00Z"},
	}, Block: []byte(block)}
}

// TestJoiner: records split in segments (WARC 1.1 section 6.7) come out
// of a Joiner whole, as their origin record with the blocks joined in
// order; a missing or misplaced segment, one of no origin, a total that
// does not add up or a record longer than the limit is an error naming
// the record by the where its first segment was given.
func TestJoiner(t *testing.T) {
	type out struct {
		id, block string
		err       string // the error of Add, or of End if last
	}
	cases := map[string]struct {
		in   []*warc.Record
		max  int64
		want []out
	}{
		"not segmented": {
			in:   []*warc.Record{plain("a", "x"), plain("b", "y")},
			want: []out{{id: "a", block: "x"}, {id: "b", block: "y"}},
		},
		"three segments": {
			in:   []*warc.Record{segment("a", 1, "HTTP/1.1 200 OK\r\n", 0), segment("a", 2, "\r\nhel", 0), plain("b", "y"), segment("a", 3, "lo", 24)},
			want: []out{{id: "b", block: "y"}, {id: "a", block: "HTTP/1.1 200 OK\r\n\r\nhello"}},
		},
		"a segment missing": {
			in:   []*warc.Record{segment("a", 1, "ab", 0), segment("a", 3, "cd", 6), plain("b", "y")},
			want: []out{{err: "record at 1 (a): segment 3 (record at 2) where segment 2 was due: a segment is missing"}, {id: "b", block: "y"}},
		},
		"the last segment missing": {
			in:   []*warc.Record{segment("a", 1, "ab", 0), segment("a", 2, "cd", 0)},
			want: []out{{err: "record at 1 (a): split in segments, segment 2 the last in the file, without WARC-Segment-Total-Length: the segments after it are missing"}},
		},
		"no origin": {
			in:   []*warc.Record{segment("a", 2, "cd", 2)},
			want: []out{{err: "record at 1 (a-2): continuation segment 2 of a, whose first segment is not in the file"}},
		},
		"no origin id": {
			in:   []*warc.Record{{Version: "WARC/1.1", Header: warc.Header{{Name: warc.FieldType, Value: warc.TypeContinuation}, {Name: warc.FieldRecordID, Value: "<c>"}, {Name: warc.FieldSegmentNumber, Value: "2"}}}},
			want: []out{{err: "record at 1 (c): continuation without WARC-Segment-Origin-ID"}},
		},
		"total wrong": {
			in:   []*warc.Record{segment("a", 1, "ab", 0), segment("a", 2, "cd", 5)},
			want: []out{{err: "record at 1 (a): WARC-Segment-Total-Length 5 (record at 2), but the segments hold 4 bytes"}},
		},
		"too long": {
			max:  3,
			in:   []*warc.Record{segment("a", 1, "ab", 0), segment("a", 2, "cd", 4), plain("b", "y")},
			want: []out{{err: "record at 1 (a): segments of more than 3 bytes: block longer than the reader takes"}, {id: "b", block: "y"}},
		},
		"first segment not 1": {
			in:   []*warc.Record{renumber(segment("a", 1, "ab", 0), "2")},
			want: []out{{err: "record at 1 (a): response record with WARC-Segment-Number 2: only a continuation record has a number past 1"}},
		},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			j := &warc.Joiner{MaxBlock: c.max}
			var got []out
			for i, rec := range c.in {
				whole, err := j.Add(rec, i+1, "record at "+strconv.Itoa(i+1))
				if err != nil {
					got = append(got, out{err: err.Error()})
				}
				if whole != nil {
					got = append(got, out{id: whole.ID(), block: string(whole.Block)})
					if whole.Header.Get(warc.FieldSegmentNumber) != "" || whole.Type() == warc.TypeContinuation ||
						whole.Header.Get(warc.FieldContentLength) != "" && whole.Header.Get(warc.FieldContentLength) != strconv.Itoa(len(whole.Block)) {
						t.Errorf("joined record's header %v", whole.Header)
					}
					if d := whole.Header.Get(warc.FieldBlockDigest); d != "" && d != warc.Digest(whole.Block) {
						t.Errorf("joined record keeps its first segment's digest %s", d)
					}
				}
			}
			for _, err := range j.End() {
				got = append(got, out{err: err.Error()})
				var se *warc.SegmentError
				if !errors.As(err, &se) || se.Number != 1 {
					t.Errorf("End's error %v is no SegmentError of record 1", err)
				}
			}
			if len(got) != len(c.want) {
				t.Fatalf("got %q, want %q", got, c.want)
			}
			for i := range got {
				if got[i] != c.want[i] && !(c.want[i].err != "" && strings.Contains(got[i].err, c.want[i].err)) {
					t.Errorf("%d: got %q, want %q", i, got[i], c.want[i])
				}
			}
		})
	}
}
