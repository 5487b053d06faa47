package main

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil/internal/warc"
)

// TestSpoolCompresses: the spool holds its records compressed, a page of
// HTML taking a fraction of its size in TMPDIR (it held them as read, a
// .warc.gz file taking several times its size), and reads them back as
// they were, in the order of their dates.
func TestSpoolCompresses(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	sp, err := newSpool()
	if err != nil {
		t.Fatal(err)
	}
	defer sp.remove()
	t0 := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	var total int64
	for i, body := range []string{strings.Repeat("<p>later</p>", 1<<14), strings.Repeat("<p>earlier</p>", 1<<14)} {
		rec := &warc.Record{Header: warc.Header{
			{Name: warc.FieldType, Value: warc.TypeResponse},
			{Name: warc.FieldRecordID, Value: warc.BracketID(warc.NameID(body[:12]))},
			{Name: warc.FieldDate, Value: warc.FormatDate(t0.Add(-time.Duration(i) * time.Hour))},
		}, Block: []byte(body)}
		total += int64(len(body))
		if err := sp.add(rec, spooled{where: "here", at: t0.Add(-time.Duration(i) * time.Hour)}); err != nil {
			t.Fatal(err)
		}
	}
	if sp.written*4 > total {
		t.Errorf("spool of %d bytes for blocks of %d; want a fraction", sp.written, total)
	}
	var got []string
	err = sp.each(func(rec *warc.Record, _ spooled) error {
		got = append(got, string(rec.Block[:len("<p>earlier</p>")]))
		if !bytes.Equal(rec.Block, bytes.Repeat(rec.Block[:len(rec.Block)>>14], 1<<14)) {
			t.Errorf("block of %s changed", rec.ID())
		}
		return nil
	})
	if err != nil || len(got) != 2 || got[0] != "<p>earlier</p>" || !strings.HasPrefix(got[1], "<p>later</p>") {
		t.Errorf("each: %q, %v; want earlier, then later", got, err)
	}
}
