package warehouse_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/delta"
	"github.com/vigil-web/vigil/intent"
	"github.com/vigil-web/vigil/internal/warehouse"
	"github.com/vigil-web/vigil/internal/zstd"
	"github.com/vigil-web/vigil/markup"
	"github.com/vigil-web/vigil/spec"
	"github.com/vigil-web/vigil/tree"
	"github.com/vigil-web/vigil/treediff"
)

// TestCallerDelta stores the delta a caller (the monitor) computed, without
// diffing again, and Diff gives it back.
func TestCallerDelta(t *testing.T) {
	ctx := context.Background()
	w, db := newWarehouse(t, warehouse.Options{}) // TreeDeltas off: only the caller's delta is kept
	hist := warehouse.SyntheticHistory(3, 6000, 0.05, 11)
	v1 := put(t, w, "http://example.com/", 0, hist[0])
	old, err := w.Document(ctx, v1.ID)
	if err != nil {
		t.Fatal(err)
	}
	cur, _, err := markup.ParseBytes(hist[1], nil)
	if err != nil {
		t.Fatal(err)
	}
	d, err := treediff.Diff(old, cur, nil)
	if err != nil {
		t.Fatal(err)
	}
	v2, err := w.Put(ctx, &warehouse.Fetch{URL: "http://example.com/", FetchedAt: t0.Add(1), Status: 200, ContentType: "text/html",
		Body: hist[1], Delta: d, DeltaFrom: v1.ID})
	if err != nil {
		t.Fatal(err)
	}
	b, err := db.Body(ctx, v1.ID)
	if err != nil || len(b.TreeDelta) == 0 {
		t.Fatalf("no tree delta stored: %v", err)
	}
	if stamp := warehouse.TreeStampPrefix + strconv.Itoa(warehouse.TreeReading) + "\n"; !bytes.HasPrefix(b.TreeDelta, []byte(stamp)) {
		t.Errorf("stored tree delta starts %q, not with the stamp %q", b.TreeDelta[:min(len(b.TreeDelta), 24)], stamp)
	}
	diffLeads(t, w, v1.ID, v2.ID)
	// A delta from a version that is no longer the newest is ignored.
	v3, err := w.Put(ctx, &warehouse.Fetch{URL: "http://example.com/", FetchedAt: t0.Add(2), Status: 200, ContentType: "text/html",
		Body: hist[2], Delta: d, DeltaFrom: v1.ID})
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := db.Body(ctx, v2.ID); len(b.TreeDelta) != 0 {
		t.Fatalf("stale delta stored on version %d (v3 %d)", v2.ID, v3.ID)
	}
}

// TestStoredDeltaOfAnEarlierReading stores tree deltas built from another
// reading of the versions, as a parser change makes them, without the
// stamp of the current reading (as deltas stored before stamps were are):
// Diff checks such a delta against both versions as read now and diffs
// again when it does not lead from one to the other, whether it no longer
// applies or applies and inserts what was read otherwise then.
func TestStoredDeltaOfAnEarlierReading(t *testing.T) {
	const xhtml = `<?xml version="1.0" encoding="utf-8"?><!DOCTYPE html><html xmlns="http://www.w3.org/1999/xhtml"><head><title>t</title></head><body><p>a</p>%s</body></html>`
	hist := warehouse.SyntheticHistory(2, 6000, 0.05, 12)
	tests := []struct {
		name     string
		old, new string
		opt      markup.Options // the earlier reading
		fits     bool           // whether the delta still applies as read now
	}{
		{"white space kept", string(hist[0]), string(hist[1]), markup.Options{Whitespace: markup.Keep}, false},
		{"an escaped script read as XML", fmt.Sprintf(xhtml, ""), fmt.Sprintf(xhtml, "<script>if (a &lt; b &amp;&amp; c) go();</script>"), markup.Options{Format: markup.XML}, true},
		{"a CDATA section read as XML", fmt.Sprintf(xhtml, ""), fmt.Sprintf(xhtml, "<div><![CDATA[x < y]]></div>"), markup.Options{Format: markup.XML}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			w, db := newWarehouse(t, warehouse.Options{})
			v1 := put(t, w, "http://example.com/", 0, []byte(tt.old))
			old, _, err := markup.ParseBytes([]byte(tt.old), &tt.opt)
			if err != nil {
				t.Fatal(err)
			}
			old.AssignXIDs()
			cur, _, err := markup.ParseBytes([]byte(tt.new), &tt.opt)
			if err != nil {
				t.Fatal(err)
			}
			d, err := treediff.Diff(old, cur, nil)
			if err != nil {
				t.Fatal(err)
			}
			// Put refuses it as a caller's delta: it does not lead to the
			// new version as read now.
			v2, err := w.Put(ctx, &warehouse.Fetch{URL: "http://example.com/", FetchedAt: t0.Add(1), Status: 200, ContentType: "text/html",
				Charset: "utf-8", Body: []byte(tt.new), Delta: d, DeltaFrom: v1.ID})
			if err != nil {
				t.Fatal(err)
			}
			b, err := db.Body(ctx, v1.ID)
			if err != nil {
				t.Fatal(err)
			}
			if len(b.TreeDelta) != 0 {
				t.Fatal("a caller's delta of another reading was stored")
			}
			// Stored as deltas were before stamps.
			if b.TreeDelta, err = warehouse.LegacyTreeDelta(w, delta.Invert(d), []byte(tt.old), []byte(tt.new)); err != nil {
				t.Fatal(err)
			}
			if err := db.ReplaceBody(ctx, b, nil); err != nil {
				t.Fatal(err)
			}
			from, _ := w.Document(ctx, v1.ID)
			if _, err := delta.Apply(from, d); (err == nil) != tt.fits {
				t.Fatalf("the earlier reading's delta applies to the version as read now: %v, want %v", err == nil, tt.fits)
			}
			diffLeads(t, w, v1.ID, v2.ID)
		})
	}
}

// diffLeads checks that the warehouse's Diff from one version to another,
// applied to the first as Document reads it, gives the second.
func diffLeads(t *testing.T, w *warehouse.Warehouse, from, to int64) {
	t.Helper()
	ctx := context.Background()
	got, err := w.Diff(ctx, from, to)
	if err != nil {
		t.Fatal(err)
	}
	doc, _ := w.Document(ctx, from)
	res, err := delta.Apply(doc, got)
	if err != nil {
		t.Fatalf("Diff gave a delta that does not fit: %v", err)
	}
	want, _ := w.Document(ctx, to)
	if diff := tree.Diff(res.Root, want.Root, tree.Content); diff != "" {
		t.Fatal(diff)
	}
}

// TestXHTMLServedAsHTML diffs two versions of an XHTML page served as
// text/html, well-formed in the first only: both are read as HTML, as a
// browser reads them, so the delta is the one change and not a new tree.
func TestXHTMLServedAsHTML(t *testing.T) {
	ctx := context.Background()
	w, _ := newWarehouse(t, warehouse.Options{})
	const page = `<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd">
<html xmlns="http://www.w3.org/1999/xhtml"><head><title>Prices</title></head>
<body><h1>Prices</h1><table><tr><td>tea</td><td>%s</td></tr><tr><td>coffee</td><td>3</td></tr></table>%s</body></html>`
	v1 := put(t, w, "http://example.com/", 0, []byte(fmt.Sprintf(page, "2", "<p>Updated daily.<br/></p>")))
	v2 := put(t, w, "http://example.com/", 1, []byte(fmt.Sprintf(page, "4", "<p>Updated daily.<br></p>")))
	d, err := w.Diff(ctx, v1.ID, v2.ID)
	if err != nil {
		t.Fatal(err)
	}
	if s := d.Stats(); s.Updates != 1 || s.Inserts+s.Deletes+s.Moves != 0 {
		t.Errorf("delta %+v, want one update", s)
	}
	diffLeads(t, w, v1.ID, v2.ID)
}

// TestUnparseableBodyReadAsText: a version that does not parse (nested
// deeper than the HTML parser takes) is read as its source text, as the
// monitor compares it, so that Document and Diff show the change the
// monitor reports; with tree deltas on, one is stored and served.
func TestUnparseableBodyReadAsText(t *testing.T) {
	ctx := context.Background()
	w, db := newWarehouse(t, warehouse.Options{TreeDeltas: true})
	deep := func(leaf string) []byte {
		return []byte("<html><body>" + strings.Repeat("<div>", 600) + leaf + strings.Repeat("</div>", 600) + "</body></html>")
	}
	v1 := put(t, w, "http://example.com/deep", 0, deep("a < b"))
	v2 := put(t, w, "http://example.com/deep", 1, deep("a > b"))
	doc, err := w.Document(ctx, v1.ID)
	if err != nil {
		t.Fatalf("Document: %v", err)
	}
	if got := sourceText(doc); got != string(deep("a < b")) {
		t.Errorf("Document: source text %.80q..., want the body", got)
	}
	if b, err := db.Body(ctx, v1.ID); err != nil || len(b.TreeDelta) == 0 {
		t.Errorf("no tree delta stored between versions read as text: %v", err)
	}
	d, err := w.Diff(ctx, v1.ID, v2.ID)
	if err != nil {
		t.Fatalf("Diff: %v", err)
	}
	if s := d.Stats(); s.Updates != 1 || s.Inserts+s.Deletes+s.Moves != 0 {
		t.Errorf("delta %+v, want one update of the source text", s)
	}
	diffLeads(t, w, v1.ID, v2.ID)
}

// sourceText returns the text of the <pre> of a body read as its source,
// or "" if doc is not one.
func sourceText(doc *tree.Document) string {
	if doc == nil || doc.Root == nil || len(doc.Root.Children) != 2 {
		return ""
	}
	body := doc.Root.Children[1]
	if body.Name != "body" || len(body.Children) != 1 || body.Children[0].Name != "pre" || len(body.Children[0].Children) == 0 {
		return ""
	}
	var text strings.Builder
	for _, n := range body.Children[0].Children {
		if n.Kind != tree.Text {
			return ""
		}
		text.WriteString(n.Value)
	}
	return text.String()
}

// TestTextPageLineDiff: a page read as its source text, served as text
// (a changelog, robots.txt, a JSON answer) or not parsing as what it is
// served as, is one text node a line, so that a change of one line is
// an update of that line, not of the whole page.
func TestTextPageLineDiff(t *testing.T) {
	lines := func(changed string) string {
		var b strings.Builder
		for i := range 40 {
			if i == 17 {
				b.WriteString(changed)
			} else {
				fmt.Fprintf(&b, "line %d: <item> & \"more\"\n", i)
			}
		}
		return b.String()
	}
	tests := []struct {
		name, contentType string
		old, new          string
		oldLine, newLine  string
	}{
		{"text/plain", "text/plain", lines("v1.2 fixed\n"), lines("v1.3 fixed\n"), "v1.2 fixed\n", "v1.3 fixed\n"},
		{"application/json", "application/json", "{\n  \"a\": 1,\n  \"b\": \"<x>\"\n}\n", "{\n  \"a\": 2,\n  \"b\": \"<x>\"\n}\n", "  \"a\": 1,\n", "  \"a\": 2,\n"},
		{"XML that is not well-formed", "application/xml", "<r>\n" + lines("<a>x</a>\n"), "<r>\n" + lines("<a>y</a>\n"), "<a>x</a>\n", "<a>y</a>\n"},
		{"last line without a newline", "text/plain", "a\nb\nc", "a\nb\nd", "c", "d"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			w, _ := newWarehouse(t, warehouse.Options{TreeDeltas: true})
			var vs []*vigil.Version
			for i, body := range []string{tt.old, tt.new} {
				v, err := w.Put(ctx, &warehouse.Fetch{URL: "http://example.com/changes", FetchedAt: t0.Add(time.Duration(i) * time.Hour),
					Status: 200, ContentType: tt.contentType, Charset: "utf-8", Body: []byte(body)})
				if err != nil {
					t.Fatal(err)
				}
				vs = append(vs, v)
			}
			for i, want := range []string{tt.old, tt.new} {
				doc, err := w.Document(ctx, vs[i].ID)
				if err != nil {
					t.Fatal(err)
				}
				if got := sourceText(doc); got != want {
					t.Fatalf("version %d: source text %q, want the body %q", i+1, got, want)
				}
			}
			d, err := w.Diff(ctx, vs[0].ID, vs[1].ID)
			if err != nil {
				t.Fatal(err)
			}
			if s := d.Stats(); s.Updates != 1 || s.Inserts+s.Deletes+s.Moves != 0 {
				t.Fatalf("delta %+v, want one update", s)
			}
			var got []string
			for _, op := range d.Ops {
				got = append(got, op.Content.Value)
			}
			if want := []string{tt.oldLine, tt.newLine}; !slices.Equal(got, want) {
				t.Errorf("the update replaces %q, want the line %q", got, want)
			}
			diffLeads(t, w, vs[0].ID, vs[1].ID)
		})
	}
}

// TestPutRecordsReadAsText: Put records with each version why its body is
// read as its source text, under the current reading, as it finds it when
// it reads the body anyway (to extract links); a body of markup it does
// not read is recorded under no reading (not known), one that is not
// markup as read as no text. RecordReadAsText records a caller's reading.
func TestPutRecordsReadAsText(t *testing.T) {
	ctx := context.Background()
	deep := []byte(strings.Repeat("<div>", 600) + "x" + strings.Repeat("</div>", 600))
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i, tc := range []struct {
		name    string
		opt     warehouse.Options
		f       warehouse.Fetch
		want    string // prefix of the reason; "" for a page
		exact   bool
		reading int
	}{
		{"a page, not read", warehouse.Options{}, warehouse.Fetch{ContentType: "text/html", Body: []byte("<p>x</p>")}, "", true, 0},
		{"nested too deep, not read", warehouse.Options{}, warehouse.Fetch{ContentType: "text/html", Body: deep}, "", true, 0},
		{"not markup", warehouse.Options{}, warehouse.Fetch{ContentType: "image/png", Body: []byte("<div>")}, "", true, warehouse.TreeReading},
		{"a failed fetch", warehouse.Options{}, warehouse.Fetch{Error: "timeout"}, "", true, warehouse.TreeReading},
		{"a page read for its links", warehouse.Options{ExtractLinks: true}, warehouse.Fetch{ContentType: "text/html", Body: []byte("<p>x</p>")}, "", true, warehouse.TreeReading},
		{"nested too deep, read for its links", warehouse.Options{ExtractLinks: true}, warehouse.Fetch{ContentType: "text/html", Body: deep}, "parse HTML: elements nested more than 512 deep", false, warehouse.TreeReading},
		{"XML not well-formed, read for its links", warehouse.Options{ExtractLinks: true}, warehouse.Fetch{ContentType: "application/xml", Body: []byte("<r><a>x</r>")}, "line 1, column 8: end tag </r> does not match", false, warehouse.TreeReading},
		// Markup by vigil.IsMarkupMediaType, which ReadBody and Diff parse
		// as XML: an XSLT style sheet, RDF, any +xml type. They were
		// recorded as read as no text, their parse error never told.
		{"XSLT not well-formed, read for its links", warehouse.Options{ExtractLinks: true}, warehouse.Fetch{ContentType: "text/xsl", Body: []byte("<r><a>x</r>")}, "line 1, column 8: end tag </r> does not match", false, warehouse.TreeReading},
		{"RDF not well-formed, read for its links", warehouse.Options{ExtractLinks: true}, warehouse.Fetch{ContentType: "application/rdf+xml", Body: []byte("<r><a>x</r>")}, "line 1, column 8: end tag </r> does not match", false, warehouse.TreeReading},
		{"XSLT, not read", warehouse.Options{}, warehouse.Fetch{ContentType: "text/xsl", Body: []byte("<r><a>x</r>")}, "", true, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w, db := newWarehouse(t, tc.opt)
			f := tc.f
			f.URL, f.FetchedAt, f.Status = "http://example.com/p", at.Add(time.Duration(i)*time.Hour), 200
			v, err := w.Put(ctx, &f)
			if err != nil {
				t.Fatal(err)
			}
			got, err := db.FindVersionByID(ctx, v.ID)
			if err != nil {
				t.Fatal(err)
			}
			if got.TreeReading != tc.reading || !strings.HasPrefix(got.ReadAsText, tc.want) || (tc.exact && got.ReadAsText != tc.want) {
				t.Errorf("stored read as text %q under reading %d, want %q under %d", got.ReadAsText, got.TreeReading, tc.want, tc.reading)
			}
			if err := w.RecordReadAsText(ctx, v.ID, "told"); err != nil {
				t.Fatal(err)
			}
			if got, err = db.FindVersionByID(ctx, v.ID); err != nil || got.ReadAsText != "told" || got.TreeReading != warehouse.TreeReading {
				t.Errorf("as a caller read it: %q under reading %d, %v; want %q under %d", got.ReadAsText, got.TreeReading, err, "told", warehouse.TreeReading)
			}
		})
	}
}

// TestReadAsText: a version's reason, recorded under the current reading,
// is returned as recorded, its body not read; one recorded under another
// reading (or none: a version stored before the reason was recorded) is
// read, and what is found recorded, unless it is a later reading's (a
// newer Vigil on the same store), which is kept.
func TestReadAsText(t *testing.T) {
	ctx := context.Background()
	w, db := newWarehouse(t, warehouse.Options{})
	deep := []byte(strings.Repeat("<div>", 600) + "x" + strings.Repeat("</div>", 600))
	page := put(t, w, "http://example.com/p", 0, []byte("<p>x</p>"))
	source := put(t, w, "http://example.com/p", 1, deep)
	told := put(t, w, "http://example.com/p", 2, []byte("<p>y</p>"))
	unknown := put(t, w, "http://example.com/p", 3, append([]byte("<p>z</p>"), deep...))
	later := put(t, w, "http://example.com/p", 4, append([]byte("<p>later</p>"), deep...))
	if err := db.RecordReadAsText(ctx, later.ID, "a later reading's", warehouse.TreeReading+1); err != nil {
		t.Fatal(err)
	}
	if err := db.RecordReadAsText(ctx, page.ID, "an older reading's", warehouse.TreeReading-1); err != nil {
		t.Fatal(err)
	}
	if err := db.RecordReadAsText(ctx, source.ID, "", warehouse.TreeReading-1); err != nil {
		t.Fatal(err)
	}
	if err := db.RecordReadAsText(ctx, told.ID, "recorded", warehouse.TreeReading); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		id   int64
		want string
		// what the store keeps: the reason found, under the current
		// reading, unless a later reading's is recorded
		stored  string
		reading int
	}{
		{"a page read again", page.ID, "", "", warehouse.TreeReading},
		{"source text read again", source.ID, "parse HTML: elements nested more than 512 deep", "", warehouse.TreeReading},
		{"as recorded", told.ID, "recorded", "", warehouse.TreeReading},
		{"not known, read", unknown.ID, "parse HTML: elements nested more than 512 deep", "", warehouse.TreeReading},
		{"a later reading's, read, kept", later.ID, "parse HTML: elements nested more than 512 deep", "a later reading's", warehouse.TreeReading + 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, err := db.FindVersionByID(ctx, tc.id)
			if err != nil {
				t.Fatal(err)
			}
			got, err := w.ReadAsText(ctx, v)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(got, tc.want) || (tc.want == "") != (got == "") {
				t.Errorf("ReadAsText = %q, want %q...", got, tc.want)
			}
			stored, err := db.FindVersionByID(ctx, tc.id)
			if err != nil {
				t.Fatal(err)
			}
			if tc.stored == "" {
				tc.stored = got
			}
			if stored.ReadAsText != tc.stored || stored.TreeReading != tc.reading {
				t.Errorf("recorded %q under reading %d, want %q under %d", stored.ReadAsText, stored.TreeReading, tc.stored, tc.reading)
			}
		})
	}
}

// bodyReads counts the stored bodies a store is asked for.
type bodyReads struct {
	warehouse.Store
	n int
}

func (s *bodyReads) Body(ctx context.Context, versionID int64) (*vigil.StoredBody, error) {
	s.n++
	return s.Store.Body(ctx, versionID)
}

// TestReadAsTextAll: the reasons of a history none of whose versions is
// known (stored before reasons were recorded) are read, and recorded, in
// one walk down its patch chain: each stored body is read once, not once
// for each version whose chain passes it.
func TestReadAsTextAll(t *testing.T) {
	ctx := context.Background()
	w, db := newWarehouse(t, warehouse.Options{})
	const n = 20
	deep := strings.Repeat("<div>", 600) + "x" + strings.Repeat("</div>", 600)
	want := map[int64]string{}
	var resource int64
	for i := range n {
		body := "<p>version " + strconv.Itoa(i) + "</p>"
		if i%3 == 0 {
			body += deep
		}
		v := put(t, w, "http://example.com/p", i, []byte(body))
		resource = v.ResourceID
		if i%3 == 0 {
			want[v.ID] = "parse HTML: elements nested more than 512 deep"
		}
	}
	vs, _, err := db.FindVersions(ctx, vigil.VersionFilter{ResourceID: resource}) // oldest first, as the API lists them
	if err != nil {
		t.Fatal(err)
	}
	if len(vs) != n {
		t.Fatalf("%d versions, want %d", len(vs), n)
	}
	reads := &bodyReads{Store: db}
	codec, err := zstd.New(0)
	if err != nil {
		t.Fatal(err)
	}
	counted, err := warehouse.New(reads, warehouse.Options{Codec: codec})
	if err != nil {
		t.Fatal(err)
	}
	got, failed := counted.ReadAsTextAll(ctx, vs, 1<<30)
	if len(failed) != 0 {
		t.Fatal(failed)
	}
	for _, v := range vs {
		why, ok := got[v.ID]
		if !ok || !strings.HasPrefix(why, want[v.ID]) || (why == "") != (want[v.ID] == "") {
			t.Errorf("version #%d: %q (known %v), want %q...", v.Seq, why, ok, want[v.ID])
		}
		stored, err := db.FindVersionByID(ctx, v.ID)
		if err != nil {
			t.Fatal(err)
		}
		if stored.ReadAsText != why || stored.TreeReading != warehouse.TreeReading {
			t.Errorf("version #%d recorded %q under reading %d, want %q under %d", v.Seq, stored.ReadAsText, stored.TreeReading, why, warehouse.TreeReading)
		}
	}
	if reads.n != n {
		t.Errorf("%d stored bodies read for a history of %d versions, want %d", reads.n, n, n)
	}
}

// TestReadAsTextAllOfVersionDropped: versions listed, then dropped by
// retention before their reasons are read, have none; the others theirs.
func TestReadAsTextAllOfVersionDropped(t *testing.T) {
	ctx := context.Background()
	w, db := newWarehouse(t, warehouse.Options{})
	deep := strings.Repeat("<div>", 600) + "x" + strings.Repeat("</div>", 600)
	var resource int64
	for i := range 3 {
		resource = put(t, w, "http://example.com/p", i, []byte(strconv.Itoa(i)+deep)).ResourceID
	}
	vs, _, err := db.FindVersions(ctx, vigil.VersionFilter{ResourceID: resource})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.ApplyRetention(ctx, resource, warehouse.Retention{MaxVersions: 1}); err != nil {
		t.Fatal(err)
	}
	got, failed := w.ReadAsTextAll(ctx, vs, 1<<30)
	if len(failed) != 0 {
		t.Fatal(failed)
	}
	if len(got) != 1 || !strings.HasPrefix(got[vs[2].ID], "parse HTML: elements nested more than 512 deep") {
		t.Errorf("ReadAsTextAll = %v, want the newest version's reason only", got)
	}
}

// bodyFails is a store whose stored body of one version cannot be read.
type bodyFails struct {
	warehouse.Store
	versionID int64
}

func (s *bodyFails) Body(ctx context.Context, versionID int64) (*vigil.StoredBody, error) {
	if versionID == s.versionID {
		return nil, errors.New("corrupt patch")
	}
	return s.Store.Body(ctx, versionID)
}

// TestReadAsTextAllOfBodyUnreadable: a version whose body cannot be read
// is not known, its error given; the versions whose chain does not pass
// it are known all the same.
func TestReadAsTextAllOfBodyUnreadable(t *testing.T) {
	ctx := context.Background()
	w, db := newWarehouse(t, warehouse.Options{FullEvery: 1}) // every body in full: no chain passes another
	deep := strings.Repeat("<div>", 600) + "x" + strings.Repeat("</div>", 600)
	var resource int64
	for i := range 3 {
		resource = put(t, w, "http://example.com/p", i, []byte(strconv.Itoa(i)+deep)).ResourceID
	}
	vs, _, err := db.FindVersions(ctx, vigil.VersionFilter{ResourceID: resource})
	if err != nil {
		t.Fatal(err)
	}
	codec, err := zstd.New(0)
	if err != nil {
		t.Fatal(err)
	}
	broken, err := warehouse.New(&bodyFails{Store: db, versionID: vs[1].ID}, warehouse.Options{Codec: codec, FullEvery: 1})
	if err != nil {
		t.Fatal(err)
	}
	got, failed := broken.ReadAsTextAll(ctx, vs, 1<<30)
	if len(failed) != 1 || failed[vs[1].ID] == nil || !strings.Contains(failed[vs[1].ID].Error(), "corrupt patch") {
		t.Errorf("failed = %v, want version %d's corrupt patch", failed, vs[1].ID)
	}
	if _, ok := got[vs[1].ID]; ok || len(got) != 2 {
		t.Errorf("known %v, want versions %d and %d only", got, vs[0].ID, vs[2].ID)
	}
	for _, v := range []*vigil.Version{vs[0], vs[2]} {
		if !strings.HasPrefix(got[v.ID], "parse HTML: elements nested more than 512 deep") {
			t.Errorf("version %d: %q, want its reason", v.ID, got[v.ID])
		}
	}
}

// recordFails is a store whose RecordReadAsText fails with err.
type recordFails struct {
	warehouse.Store
	err error
}

func (s *recordFails) RecordReadAsText(context.Context, int64, string, int) error { return s.err }

// TestReadAsTextOfVersionDropped: a reason that cannot be recorded because
// retention dropped the version meanwhile (ENOTFOUND) is expected, and
// not logged; another failure to record it is.
func TestReadAsTextOfVersionDropped(t *testing.T) {
	ctx := context.Background()
	w, db := newWarehouse(t, warehouse.Options{})
	v := put(t, w, "http://example.com/p", 0, []byte("<p>x</p>"))
	for _, tc := range []struct {
		name   string
		err    error
		logged bool
	}{
		{"dropped", vigil.Errorf(vigil.ENOTFOUND, "version %d not found", v.ID), false},
		{"another failure", errors.New("disk full"), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var log bytes.Buffer
			codec, err := zstd.New(0)
			if err != nil {
				t.Fatal(err)
			}
			fails, err := warehouse.New(&recordFails{Store: db, err: tc.err}, warehouse.Options{Codec: codec, Logger: slog.New(slog.NewTextHandler(&log, nil))})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := fails.ReadAsText(ctx, v); err != nil {
				t.Fatal(err)
			}
			if logged := log.Len() > 0; logged != tc.logged {
				t.Errorf("logged %v (%q), want %v", logged, log.String(), tc.logged)
			}
		})
	}
}

// TestTextPagePhraseAcrossLines: a phrase across a line break of a page
// read as its source text, now one text node a line, is found as it was
// when the page was one text: the lines of the <pre> read as one text.
func TestTextPagePhraseAcrossLines(t *testing.T) {
	s, err := spec.ParseSentinel("test", []byte(`Create Sentinel s1 Using http://example.com/ Monitor phrase {"sold out"}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ name, contentType, old, new string }{
		{"text/plain", "text/plain", "Tickets\non sale\n", "Tickets sold\nout, more soon\n"},
		{"XML that is not well-formed", "application/xml", "<r>\nTickets on sale\n", "<r>\nTickets sold\nout, more soon\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			old, err := warehouse.ParseBody([]byte(tt.old), "utf-8", tt.contentType)
			if err != nil {
				t.Fatal(err)
			}
			cur, err := warehouse.ParseBody([]byte(tt.new), "utf-8", tt.contentType)
			if err != nil {
				t.Fatal(err)
			}
			if n := len(cur.Root.Children[1].Children[0].Children); n != strings.Count(tt.new, "\n") {
				t.Fatalf("%d text nodes in the <pre>, want one a line", n)
			}
			r, err := intent.NewPair(old, cur, nil, nil).Evaluate(s.Monitor.X)
			if err != nil {
				t.Fatal(err)
			}
			if !r.Matched || len(r.Changes) != 1 {
				t.Errorf("matched %v with %d changes, want the phrase inserted", r.Matched, len(r.Changes))
			}
		})
	}
}

// TestStoredDeltaOfOneTextNode: a tree delta stored under the reading
// before the source text of a page was cut in lines (6), which updates
// the whole text, is not served: Diff reads both versions as now and
// gives the update of the one line that changed.
func TestStoredDeltaOfOneTextNode(t *testing.T) {
	ctx := context.Background()
	w, db := newWarehouse(t, warehouse.Options{TreeDeltas: true})
	const old, new = "<r>\nTickets\non sale\n", "<r>\nTickets\nsold out\n"
	var vs []*vigil.Version
	for i, body := range []string{old, new} {
		v, err := w.Put(ctx, &warehouse.Fetch{URL: "http://example.com/r.xml", FetchedAt: t0.Add(time.Duration(i) * time.Hour),
			Status: 200, ContentType: "application/xml", Charset: "utf-8", Body: []byte(body)})
		if err != nil {
			t.Fatal(err)
		}
		vs = append(vs, v)
	}
	oneText := func(body string) *tree.Document { // the tree of reading 6
		doc, err := warehouse.ParseBody([]byte(body), "utf-8", "application/xml")
		if err != nil {
			t.Fatal(err)
		}
		pre := doc.Root.Children[1].Children[0]
		pre.Children = []*tree.Node{{Kind: tree.Text, Value: sourceText(doc), Parent: pre}}
		return doc
	}
	a, b := oneText(old), oneText(new)
	a.AssignXIDs()
	d, err := treediff.Diff(a, b, nil)
	if err != nil {
		t.Fatal(err)
	}
	stored, err := db.Body(ctx, vs[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	legacy, err := warehouse.LegacyTreeDelta(w, delta.Invert(d), []byte(old), []byte(new))
	if err != nil {
		t.Fatal(err)
	}
	stored.TreeDelta = append([]byte(warehouse.TreeStampPrefix+"6\n"), legacy...)
	if err := db.ReplaceBody(ctx, stored, nil); err != nil {
		t.Fatal(err)
	}
	got, err := w.Diff(ctx, vs[0].ID, vs[1].ID)
	if err != nil {
		t.Fatal(err)
	}
	if s := got.Stats(); s.Updates != 1 || s.Inserts+s.Deletes+s.Moves != 0 || got.Ops[0].Content.Value != "on sale\n" {
		t.Errorf("delta %+v updating %q, want the update of the line %q", s, got.Ops[0].Content.Value, "on sale\n")
	}
	diffLeads(t, w, vs[0].ID, vs[1].ID)
}

// TestLineSplitDeltaCodecs: a delta that inserts or deletes the <pre> of a
// page read as its source, its lines adjacent text nodes, is written and
// read back by the XML and JSON codecs (which part adjacent texts), and
// applies and inverts.
func TestLineSplitDeltaCodecs(t *testing.T) {
	const text = "a\nb <x>\n\nc"
	read := func(withPre bool) *tree.Document {
		doc, err := warehouse.ParseBody([]byte(text), "utf-8", "text/plain")
		if err != nil {
			t.Fatal(err)
		}
		if !withPre {
			doc.Root.Children[1].Children = nil
		}
		doc.AssignXIDs()
		return doc
	}
	for _, tt := range []struct {
		name     string
		old, cur *tree.Document
	}{
		{"lines inserted", read(false), read(true)},
		{"lines deleted", read(true), read(false)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			old, cur := tt.old, tt.cur
			d, err := treediff.Diff(old, cur, nil)
			if err != nil {
				t.Fatal(err)
			}
			adjacent := false
			for _, op := range d.Ops {
				if op.Content != nil && op.Content.Name == "pre" && len(op.Content.Children) == 4 {
					adjacent = true
				}
			}
			if !adjacent {
				t.Fatal("no operation carries the <pre> of four lines")
			}
			var xb, jb bytes.Buffer
			if err := delta.EncodeXML(&xb, d); err != nil {
				t.Fatal(err)
			}
			if err := delta.EncodeJSON(&jb, d); err != nil {
				t.Fatal(err)
			}
			dx, err := delta.DecodeXML(&xb)
			if err != nil || len(dx) != 1 {
				t.Fatalf("XML: %v", err)
			}
			dj, err := delta.DecodeJSON(&jb)
			if err != nil {
				t.Fatalf("JSON: %v", err)
			}
			for codec, got := range map[string]*delta.Delta{"XML": dx[0], "JSON": dj} {
				res, err := delta.Apply(old, got)
				if err != nil {
					t.Fatalf("%s: %v", codec, err)
				}
				if diff := tree.Diff(res.Root, cur.Root, tree.Content); diff != "" {
					t.Fatalf("%s: applied: %s", codec, diff)
				}
				back, err := delta.Apply(res, delta.Invert(got))
				if err != nil {
					t.Fatalf("%s: inverse: %v", codec, err)
				}
				if diff := tree.Diff(back.Root, old.Root, tree.Content); diff != "" {
					t.Fatalf("%s: inverted: %s", codec, diff)
				}
			}
		})
	}
}
