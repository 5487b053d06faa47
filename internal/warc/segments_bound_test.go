package warc_test

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/internal/warc"
)

// TestJoinerBoundsOpenRecords: a Joiner keeps the headers of the records
// whose segments it has not finished as well as their blocks, and counts
// them: first segments of empty blocks but long headers (a hostile file
// of thousands of them, each of up to MaxHeader bytes) are refused past
// MaxHeader bytes of headers kept, not kept without end.
func TestJoinerBoundsOpenRecords(t *testing.T) {
	j := &warc.Joiner{}
	long := strings.Repeat("x", warc.MaxHeader/4-1000)
	var refused error
	for i := range 8 {
		rec := segment("a"+strconv.Itoa(i), 1, "", 0)
		rec.Header = append(rec.Header, warc.Field{Name: "X-Padding", Value: long})
		if _, err := j.Add(rec, i+1, "record "+strconv.Itoa(i+1)); err != nil {
			refused = err
			break
		}
	}
	if !errors.Is(refused, warc.ErrTooLong) {
		t.Fatalf("8 first segments of %d bytes of header each: %v, want an error wrapping ErrTooLong", len(long), refused)
	}
	var se *warc.SegmentError
	if !errors.As(refused, &se) || se.Number != 5 {
		t.Errorf("the error %v names record %v, want the fifth (four headers of a quarter of MaxHeader fill it)", refused, se)
	}
	if errs := j.End(); len(errs) != 4 {
		t.Errorf("End: %d records open, want the 4 taken", len(errs))
	}
}

// TestJoinerDuplicateOrigin: a first segment whose id is that of a
// record whose segments are being joined is an error of its own; the
// record open is joined by its continuations.
func TestJoinerDuplicateOrigin(t *testing.T) {
	j := &warc.Joiner{}
	if _, err := j.Add(segment("a", 1, "ab", 0), 1, "record 1"); err != nil {
		t.Fatal(err)
	}
	_, err := j.Add(segment("a", 1, "xy", 0), 2, "record 2")
	var se *warc.SegmentError
	if !errors.As(err, &se) || se.Number != 2 || !strings.Contains(err.Error(), "record 1") {
		t.Errorf("a second first segment of a: %v, want a SegmentError of record 2 naming record 1", err)
	}
	whole, err := j.Add(segment("a", 2, "cd", 4), 3, "record 3")
	if err != nil || whole == nil || string(whole.Block) != "abcd" {
		t.Errorf("joined: %v, %v; want abcd", whole, err)
	}
	if errs := j.End(); len(errs) != 0 {
		t.Errorf("End: %v, want none open", errs)
	}
}

// TestJoinerOrigin: Origin names the record Add returned by what Add was
// given with it, or for a record joined with its first segment.
func TestJoinerOrigin(t *testing.T) {
	j := &warc.Joiner{}
	in := []*warc.Record{segment("a", 1, "ab", 0), plain("b", "y"), segment("a", 2, "cd", 4)}
	want := map[int]string{2: "b 2", 3: "a 1"}
	for i, rec := range in {
		whole, err := j.Add(rec, i+1, "record "+strconv.Itoa(i+1))
		if err != nil {
			t.Fatal(err)
		}
		if whole == nil {
			continue
		}
		n, where := j.Origin()
		if got := whole.ID() + " " + strconv.Itoa(n); got != want[i+1] || where != "record "+strconv.Itoa(n) {
			t.Errorf("after record %d: %s named %d, %q; want %s", i+1, whole.ID(), n, where, want[i+1])
		}
	}
}
