package warehouse_test

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"testing"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/warehouse"
	"github.com/vigil-web/vigil/internal/zstd"
)

// recordCount counts the reasons a store is asked to record: one for
// each body the warehouse parsed to learn it.
type recordCount struct {
	warehouse.Store
	n int
}

func (s *recordCount) RecordReadAsText(ctx context.Context, versionID int64, reason string, reading int) error {
	s.n++
	return s.Store.RecordReadAsText(ctx, versionID, reason, reading)
}

// unknownHistory stores n versions of equal size, each of url, and
// returns them, oldest first, with their reasons not known (as stored
// by an older Vigil) and the size of each.
func unknownHistory(t *testing.T, w *warehouse.Warehouse, db warehouse.Store, url string, n int) ([]*vigil.Version, int64) {
	t.Helper()
	ctx := context.Background()
	deep := strings.Repeat("<div>", 600) + "x" + strings.Repeat("</div>", 600)
	var vs []*vigil.Version
	for i := range n {
		body := fmt.Sprintf("<p>version %03d</p>", i)
		if i%2 == 0 {
			body += deep
		} else {
			body += strings.Repeat(" ", len(deep))
		}
		v := put(t, w, url, i, []byte(body))
		if err := db.RecordReadAsText(ctx, v.ID, "", 1); err != nil {
			t.Fatal(err)
		}
		if v, err := db.FindVersionByID(ctx, v.ID); err != nil {
			t.Fatal(err)
		} else {
			vs = append(vs, v)
		}
	}
	return vs, vs[0].Size
}

// countedWarehouse is a warehouse over db that counts the reasons it
// records.
func countedWarehouse(t *testing.T, db warehouse.Store) (*warehouse.Warehouse, *recordCount) {
	t.Helper()
	codec, err := zstd.New(0)
	if err != nil {
		t.Fatal(err)
	}
	count := &recordCount{Store: db}
	w, err := warehouse.New(count, warehouse.Options{Codec: codec})
	if err != nil {
		t.Fatal(err)
	}
	return w, count
}

// TestReadAsTextAllBudget: one call parses bodies of no more than its
// budget, the newest first; the versions past it are not known yet, and
// left out.
func TestReadAsTextAllBudget(t *testing.T) {
	ctx := context.Background()
	w, db := newWarehouse(t, warehouse.Options{})
	vs, size := unknownHistory(t, w, db, "http://example.com/p", 10)
	counted, count := countedWarehouse(t, db)
	known, failed := counted.ReadAsTextAll(ctx, vs, 3*size+size/2)
	if len(failed) != 0 {
		t.Fatal(failed)
	}
	if count.n > 3 {
		t.Errorf("%d bodies parsed for a budget of 3.5 bodies", count.n)
	}
	if len(known) != 3 {
		t.Errorf("%d versions known, want the 3 the budget takes", len(known))
	}
	for _, v := range vs[7:] {
		if _, ok := known[v.ID]; !ok {
			t.Errorf("version #%d, of the newest, not known", v.Seq)
		}
	}
}

// TestFillReadAsText: FillReadAsText, called until it has nothing left
// to try, makes every reason known, each call parsing bodies of no more
// than its budget (one body at least: a body larger than the budget is
// read alone).
func TestFillReadAsText(t *testing.T) {
	ctx := context.Background()
	w, db := newWarehouse(t, warehouse.Options{})
	a, size := unknownHistory(t, w, db, "http://example.com/a", 7)
	b, _ := unknownHistory(t, w, db, "http://example.com/b", 5)
	counted, count := countedWarehouse(t, db)
	for _, budget := range []int64{2 * size, size / 2} {
		for _, v := range append(a, b...) { // not known again
			if err := db.RecordReadAsText(ctx, v.ID, "", 1); err != nil {
				t.Fatal(err)
			}
		}
		perCall := max(1, budget/size)
		for calls := 0; ; calls++ {
			if calls > len(a)+len(b) {
				t.Fatalf("budget %d: still filling after %d calls", budget, calls)
			}
			count.n = 0
			n, _, err := counted.FillReadAsText(ctx, budget)
			if err != nil {
				t.Fatal(err)
			}
			if int64(count.n) > perCall {
				t.Errorf("budget %d: one call parsed %d bodies of %d bytes", budget, count.n, size)
			}
			if n == 0 {
				break
			}
		}
		for _, v := range append(a, b...) {
			got, err := db.FindVersionByID(ctx, v.ID)
			if err != nil {
				t.Fatal(err)
			}
			want := ""
			if (v.Seq-1)%2 == 0 {
				want = "parse HTML: elements nested more than 512 deep"
			}
			if got.TreeReading != warehouse.TreeReading || !strings.HasPrefix(got.ReadAsText, want) || (want == "") != (got.ReadAsText == "") {
				t.Errorf("budget %d: version %d recorded %q under reading %d, want %q... under %d", budget, v.ID, got.ReadAsText, got.TreeReading, want, warehouse.TreeReading)
			}
		}
	}
}

// unreadableWarehouse is a warehouse over db, keeping every body in full,
// that cannot read the body of version id (a corrupt patch).
func unreadableWarehouse(t *testing.T, db warehouse.Store, id int64) *warehouse.Warehouse {
	t.Helper()
	codec, err := zstd.New(0)
	if err != nil {
		t.Fatal(err)
	}
	w, err := warehouse.New(&bodyFails{Store: db, versionID: id}, warehouse.Options{Codec: codec, FullEvery: 1})
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// TestFillReadAsTextOfBodyUnreadable: a version whose body cannot be read
// is reported by the batch that tries it, once, and passed over by the
// passes after; the others become known.
func TestFillReadAsTextOfBodyUnreadable(t *testing.T) {
	ctx := context.Background()
	w, db := newWarehouse(t, warehouse.Options{FullEvery: 1}) // every body in full: no chain passes another
	vs, size := unknownHistory(t, w, db, "http://example.com/p", 5)
	broken := unreadableWarehouse(t, db, vs[2].ID)
	reported := 0
	for pass := range 3 {
		for calls := 0; ; calls++ {
			if calls > len(vs) {
				t.Fatalf("pass %d: still filling after %d calls", pass, calls)
			}
			n, failed, err := broken.FillReadAsText(ctx, 2*size)
			if err != nil {
				t.Fatal(err)
			}
			for id, err := range failed {
				if id != vs[2].ID || !strings.Contains(err.Error(), "corrupt patch") {
					t.Errorf("pass %d: version %d failed: %v", pass, id, err)
				}
				reported++
			}
			if n == 0 {
				break
			}
		}
	}
	if reported != 1 {
		t.Errorf("the unreadable version reported %d times in 3 passes, want once", reported)
	}
	left, err := db.FindVersionsReadAsTextUnknown(ctx, warehouse.TreeReading, 0, 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(left) != 1 || left[0].ID != vs[2].ID {
		t.Errorf("%d versions not known, want the unreadable one only", len(left))
	}
}

// TestFillReadAsTextPassesOnce: once a pass of the background fill has
// gone through every version not known, the next ones pass over what it
// left (a body that cannot be read), at once, where they walked it again
// each poll; a version stored since is filled by the next pass.
func TestFillReadAsTextPassesOnce(t *testing.T) {
	ctx := context.Background()
	w, db := newWarehouse(t, warehouse.Options{FullEvery: 1})
	vs, size := unknownHistory(t, w, db, "http://example.com/p", 5)
	broken := unreadableWarehouse(t, db, vs[2].ID)
	fill := func() (calls, passed int) {
		t.Helper()
		for calls = 1; ; calls++ {
			if calls > 2*len(vs) {
				t.Fatalf("still filling after %d calls", calls)
			}
			n, _, err := broken.FillReadAsText(ctx, 2*size)
			if err != nil {
				t.Fatal(err)
			}
			if n == 0 {
				return calls, passed
			}
			passed += n
		}
	}
	if _, passed := fill(); passed != len(vs) {
		t.Fatalf("the first pass passed %d versions, want %d", passed, len(vs))
	}
	for pass := range 3 {
		if calls, passed := fill(); calls != 1 || passed != 0 {
			t.Errorf("pass %d after the first: %d calls, %d versions passed; want 1 call and none", pass+2, calls, passed)
		}
	}
	v := put(t, broken, "http://example.com/p", len(vs), []byte("<p>new</p>"+strings.Repeat("<div>", 600)))
	if err := db.RecordReadAsText(ctx, v.ID, "", 1); err != nil {
		t.Fatal(err)
	}
	if _, passed := fill(); passed != 1 {
		t.Errorf("the pass after a new version passed %d versions, want 1", passed)
	}
	if got, err := db.FindVersionByID(ctx, v.ID); err != nil || got.TreeReading != warehouse.TreeReading || got.ReadAsText == "" {
		t.Errorf("the new version after the fill: %+v, %v", got, err)
	}
}

// TestFillReadAsTextPassesAllAgain: a version the passes did not see
// below where the last one started (on a store several writers share, a
// version whose transaction committed once a pass had gone past its id)
// is filled by a whole pass, which comes every fillWholeEvery passes.
func TestFillReadAsTextPassesAllAgain(t *testing.T) {
	ctx := context.Background()
	w, db := newWarehouse(t, warehouse.Options{FullEvery: 1})
	vs, size := unknownHistory(t, w, db, "http://example.com/p", 3)
	late := &committedLate{Store: db, versionID: vs[0].ID}
	codec, err := zstd.New(0)
	if err != nil {
		t.Fatal(err)
	}
	filler, err := warehouse.New(late, warehouse.Options{Codec: codec, FullEvery: 1})
	if err != nil {
		t.Fatal(err)
	}
	pass := func() {
		t.Helper()
		for calls := 0; ; calls++ {
			if calls > 2*len(vs) {
				t.Fatalf("still filling after %d calls", calls)
			}
			n, _, err := filler.FillReadAsText(ctx, 2*size)
			if err != nil {
				t.Fatal(err)
			}
			if n == 0 {
				return
			}
		}
	}
	pass()
	late.committed = true
	for range warehouse.FillWholeEvery {
		pass()
	}
	if v, err := db.FindVersionByID(ctx, vs[0].ID); err != nil || v.TreeReading != warehouse.TreeReading {
		t.Errorf("after %d passes: %+v, %v; want the version known", warehouse.FillWholeEvery+1, v, err)
	}
}

// committedLate is a store whose search for versions not known does not
// find versionID until committed is set, as another writer's version
// not committed yet.
type committedLate struct {
	warehouse.Store
	versionID int64
	committed bool
}

func (s *committedLate) FindVersionsReadAsTextUnknown(ctx context.Context, reading int, before int64, limit int) ([]*vigil.Version, error) {
	vs, err := s.Store.FindVersionsReadAsTextUnknown(ctx, reading, before, limit)
	if s.committed {
		return vs, err
	}
	return slices.DeleteFunc(vs, func(v *vigil.Version) bool { return v.ID == s.versionID }), err
}

// TestReadAsTextAllCanceled: a request that ends (its client gone, the
// daemon stopping) while ReadAsTextAll reads bodies leaves the versions
// not known yet: none is reported as a body that cannot be read, and
// nothing is logged.
func TestReadAsTextAllCanceled(t *testing.T) {
	ctx := context.Background()
	var log bytes.Buffer
	codec, err := zstd.New(0)
	if err != nil {
		t.Fatal(err)
	}
	_, db := newWarehouse(t, warehouse.Options{})
	w, err := warehouse.New(db, warehouse.Options{Codec: codec, Logger: slog.New(slog.NewTextHandler(&log, nil))})
	if err != nil {
		t.Fatal(err)
	}
	var resource int64
	for i := range 3 {
		resource = put(t, w, "http://example.com/p", i, []byte(fmt.Sprintf("<p>%d</p>", i))).ResourceID
	}
	vs, _, err := db.FindVersions(ctx, vigil.VersionFilter{ResourceID: resource})
	if err != nil {
		t.Fatal(err)
	}
	canceled, cancel := context.WithCancel(ctx)
	cancel()
	known, failed := w.ReadAsTextAll(canceled, vs, 1<<30)
	if len(failed) != 0 {
		t.Errorf("failed = %v, want none: the versions are not known yet", failed)
	}
	if len(known) != 0 {
		t.Errorf("known = %v, want none", known)
	}
	if log.Len() != 0 {
		t.Errorf("logged %q", log.String())
	}
}

// TestReadAsTextOfTextPage: a version served as text that is not markup is
// read as its source, and the warehouse says so as ReadBody does ("served
// as text/plain"): Put records it without parsing; one recorded under an
// earlier reading, which read it as a page, is read again; one served as
// text that begins as markup and does not parse tells the parse error, as
// the monitor finds it.
func TestReadAsTextOfTextPage(t *testing.T) {
	ctx := context.Background()
	w, db := newWarehouse(t, warehouse.Options{})
	putAs := func(url, contentType, body string) *vigil.Version {
		t.Helper()
		v, err := w.Put(ctx, &warehouse.Fetch{URL: url, FetchedAt: t0, Status: 200, ContentType: contentType, Charset: "utf-8", Body: []byte(body)})
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	text := putAs("http://example.com/robots.txt", "text/plain", "User-agent: *\nDisallow: /private\n")
	if text.ReadAsText != "served as text/plain" || text.TreeReading != warehouse.TreeReading {
		t.Errorf("Put: read as text for %q under reading %d, want %q under %d", text.ReadAsText, text.TreeReading, "served as text/plain", warehouse.TreeReading)
	}
	if v, err := db.FindVersionByID(ctx, text.ID); err != nil {
		t.Fatal(err)
	} else if v.ReadAsText != "served as text/plain" || v.TreeReading != warehouse.TreeReading {
		t.Errorf("stored: read as text for %q under reading %d, want %q under %d", v.ReadAsText, v.TreeReading, "served as text/plain", warehouse.TreeReading)
	}
	json := putAs("http://example.com/api", "application/json", "{\n  \"a\": 1\n}\n")
	deep := putAs("http://example.com/deep.txt", "text/plain", strings.Repeat("<div>", 600)+"x")
	empty := putAs("http://example.com/empty.txt", "text/plain", "")
	for _, v := range []*vigil.Version{text, json, deep, empty} {
		if err := db.RecordReadAsText(ctx, v.ID, "", warehouse.TreeReading-1); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		v    *vigil.Version
		want string // or its start
	}{
		{text, "served as text/plain"},
		{json, "served as application/json"},
		{deep, "parse HTML: elements nested more than 512 deep"},
		{empty, ""},
	} {
		v, err := db.FindVersionByID(ctx, tc.v.ID)
		if err != nil {
			t.Fatal(err)
		}
		got, err := w.ReadAsText(ctx, v)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(got, tc.want) || (got == "") != (tc.want == "") {
			t.Errorf("version of %s: read as text for %q, want %q", v.ContentType, got, tc.want)
		}
	}
}
