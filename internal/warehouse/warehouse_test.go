package warehouse_test

import (
	"bytes"
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/delta"
	"github.com/vigil-web/vigil/internal/sqlite"
	"github.com/vigil-web/vigil/internal/warehouse"
	"github.com/vigil-web/vigil/internal/zstd"
	"github.com/vigil-web/vigil/tree"
)

var t0 = time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)

func newWarehouse(t testing.TB, opt warehouse.Options) (*warehouse.Warehouse, *sqlite.DB) {
	t.Helper()
	db, err := sqlite.Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	codec, err := zstd.New(0)
	if err != nil {
		t.Fatal(err)
	}
	opt.Codec = codec
	w, err := warehouse.New(db, opt)
	if err != nil {
		t.Fatal(err)
	}
	return w, db
}

func put(t testing.TB, w *warehouse.Warehouse, url string, i int, body []byte) *vigil.Version {
	t.Helper()
	v, err := w.Put(context.Background(), &warehouse.Fetch{URL: url, FetchedAt: t0.Add(time.Duration(i) * time.Hour),
		Status: 200, ContentType: "text/html", Charset: "utf-8", Body: body})
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestChainReadsEveryVersionExactly(t *testing.T) {
	ctx := context.Background()
	const k = 4
	w, db := newWarehouse(t, warehouse.Options{FullEvery: k})
	hist := warehouse.SyntheticHistory(30, 20_000, 0.01, 1)
	var vs []*vigil.Version
	for i, body := range hist {
		vs = append(vs, put(t, w, "http://example.com/page", i, body))
	}
	for i, v := range vs {
		got, err := w.Body(ctx, v.ID)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, hist[i]) {
			t.Fatalf("version %d reads back different bytes", v.Seq)
		}
		b, err := db.Body(ctx, v.ID)
		if err != nil {
			t.Fatal(err)
		}
		wantFull := v.Seq%k == 0 || i == len(vs)-1
		if (b.Encoding == vigil.BodyFull) != wantFull {
			t.Errorf("version %d: encoding %s", v.Seq, b.Encoding)
		}
		// At most k-1 patches to a full body.
		n := 0
		for b.Encoding == vigil.BodyPatch {
			n++
			if b, err = db.Body(ctx, b.BaseID); err != nil {
				t.Fatal(err)
			}
		}
		if n > k-1 {
			t.Errorf("version %d: %d patches to read", v.Seq, n)
		}
	}
	got, err := w.BodyBySeq(ctx, vs[0].ResourceID, 7)
	if err != nil || !bytes.Equal(got, hist[6]) {
		t.Fatalf("by seq: %v", err)
	}
	_, err = w.Body(ctx, 99999)
	if vigil.ErrorCode(err) != vigil.ENOTFOUND {
		t.Fatalf("unknown version: %v", err)
	}
}

func TestIdenticalBodiesShareOneBlob(t *testing.T) {
	ctx := context.Background()
	w, db := newWarehouse(t, warehouse.Options{})
	body := []byte("<html><body><p>same</p></body></html>")
	a1 := put(t, w, "http://a.example/", 0, body)
	a2 := put(t, w, "http://a.example/", 1, body)
	b1 := put(t, w, "http://b.example/", 0, body)
	st, err := db.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if st.Blobs != 1 || st.Patches != 0 {
		t.Fatalf("stats %+v", st)
	}
	for _, v := range []*vigil.Version{a1, a2, b1} {
		got, err := w.Body(ctx, v.ID)
		if err != nil || !bytes.Equal(got, body) {
			t.Fatalf("version %d: %v", v.ID, err)
		}
	}
}

func TestFailedFetchAndBinaryBodies(t *testing.T) {
	ctx := context.Background()
	w, _ := newWarehouse(t, warehouse.Options{TreeDeltas: true, FullEvery: 2})
	bodies := [][]byte{[]byte("\x89PNG\r\n\x1a\n\x00\x01"), nil, []byte("\x89PNG\r\n\x1a\n\x00\x02"), []byte("\x89PNG\r\n\x1a\n\x00\x03")}
	for i, b := range bodies {
		f := &warehouse.Fetch{URL: "http://example.com/img.png", FetchedAt: t0.Add(time.Duration(i) * time.Minute), Status: 200, ContentType: "image/png", Body: b}
		if b == nil {
			f.Status, f.Error = 0, "dial tcp: connection refused"
		}
		v, err := w.Put(ctx, f)
		if err != nil {
			t.Fatal(err)
		}
		defer func(id int64, want []byte) {
			got, err := w.Body(ctx, id)
			if err != nil || !bytes.Equal(got, want) {
				t.Errorf("version %d: %q, %v", id, got, err)
			}
		}(v.ID, b)
	}
	_, err := w.Put(ctx, &warehouse.Fetch{URL: "gopher://x/", Body: nil})
	if vigil.ErrorCode(err) != vigil.EINVALID {
		t.Fatalf("bad url: %v", err)
	}
}

func TestTreeDeltas(t *testing.T) {
	ctx := context.Background()
	w, db := newWarehouse(t, warehouse.Options{TreeDeltas: true, TreeDeltaKeep: 3, FullEvery: 4})
	hist := warehouse.SyntheticHistory(8, 8_000, 0.03, 2)
	var vs []*vigil.Version
	for i, body := range hist {
		vs = append(vs, put(t, w, "http://example.com/", i, body))
	}
	for i := 0; i+1 < len(vs); i++ {
		b, err := db.Body(ctx, vs[i].ID)
		if err != nil {
			t.Fatal(err)
		}
		kept := i >= len(vs)-1-3
		if (len(b.TreeDelta) > 0) != kept {
			t.Errorf("version %d: tree delta %d bytes, kept=%v", vs[i].Seq, len(b.TreeDelta), kept)
		}
		d, err := w.Diff(ctx, vs[i].ID, vs[i+1].ID)
		if err != nil {
			t.Fatal(err)
		}
		from, err := w.Document(ctx, vs[i].ID)
		if err != nil {
			t.Fatal(err)
		}
		got, err := delta.Apply(from, d)
		if err != nil {
			t.Fatalf("apply diff %d->%d: %v", vs[i].Seq, vs[i+1].Seq, err)
		}
		want, err := w.Document(ctx, vs[i+1].ID)
		if err != nil {
			t.Fatal(err)
		}
		if diff := tree.Diff(got.Root, want.Root, tree.Content); diff != "" {
			t.Fatalf("diff %d->%d does not give the newer tree: %s", vs[i].Seq, vs[i+1].Seq, diff)
		}
	}
	// A non-consecutive pair is diffed on demand.
	d, err := w.Diff(ctx, vs[0].ID, vs[5].ID)
	if err != nil || len(d.Ops) == 0 {
		t.Fatalf("diff 1->6: %v", err)
	}
	other := put(t, w, "http://other.example/", 0, hist[0])
	if _, err := w.Diff(ctx, vs[0].ID, other.ID); vigil.ErrorCode(err) != vigil.EINVALID {
		t.Fatalf("cross-resource diff: %v", err)
	}
}

func TestRetention(t *testing.T) {
	ctx := context.Background()
	hist := warehouse.SyntheticHistory(20, 10_000, 0.02, 3)
	cases := map[string]struct {
		r    warehouse.Retention
		keep int
	}{
		"count":      {warehouse.Retention{MaxVersions: 5}, 5},
		"age":        {warehouse.Retention{MaxAge: 6*time.Hour + time.Minute}, 7},
		"size":       {warehouse.Retention{MaxBytes: 1}, 1},
		"everything": {warehouse.Retention{}, 20},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			w, db := newWarehouse(t, warehouse.Options{FullEvery: 4, Now: func() time.Time { return t0.Add(19 * time.Hour) }})
			var vs []*vigil.Version
			for i, body := range hist {
				vs = append(vs, put(t, w, "http://example.com/", i, body))
			}
			if _, err := w.ApplyRetention(ctx, vs[0].ResourceID, tc.r); err != nil {
				t.Fatal(err)
			}
			left, n, err := db.FindVersions(ctx, vigil.VersionFilter{ResourceID: vs[0].ResourceID})
			if err != nil {
				t.Fatal(err)
			}
			if n != tc.keep {
				t.Fatalf("kept %d versions, want %d", n, tc.keep)
			}
			for _, v := range left {
				got, err := w.Body(ctx, v.ID)
				if err != nil || !bytes.Equal(got, hist[v.Seq-1]) {
					t.Fatalf("version %d after retention: %v", v.Seq, err)
				}
			}
		})
	}
	// A size bound between: the stored bytes fit afterwards.
	w, _ := newWarehouse(t, warehouse.Options{FullEvery: 4, Retention: warehouse.Retention{MaxBytes: 8000}})
	var last *vigil.Version
	for i, body := range hist {
		last = put(t, w, "http://example.com/", i, body)
	}
	n, err := w.StoredBytes(ctx, last.ResourceID)
	if err != nil || n > 8000 {
		t.Fatalf("stored %d bytes with a bound of 8000: %v", n, err)
	}
}

func TestRetentionMaterialisesBrokenChains(t *testing.T) {
	ctx := context.Background()
	w, db := newWarehouse(t, warehouse.Options{FullEvery: 100})
	hist := warehouse.SyntheticHistory(5, 5_000, 0.02, 4)
	var vs []*vigil.Version
	for i, body := range hist {
		vs = append(vs, put(t, w, "http://example.com/", i, body))
	}
	// Another writer made version 2, a patch against 3, full, and version
	// 3 a forward patch against version 2 (in this order: the other way
	// round the two would be patches of each other, which the store
	// refuses).
	codec, _ := zstd.New(0)
	z, _ := codec.Compress(hist[1])
	if err := db.ReplaceBody(ctx, &vigil.StoredBody{VersionID: vs[1].ID, Encoding: vigil.BodyFull}, &vigil.Blob{Hash: vs[1].ContentHash, Size: vs[1].Size, Data: z}); err != nil {
		t.Fatal(err)
	}
	p, _ := codec.Diff(hist[1], hist[2])
	if err := db.ReplaceBody(ctx, &vigil.StoredBody{VersionID: vs[2].ID, Encoding: vigil.BodyPatch, BaseID: vs[1].ID, Data: p}, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := w.ApplyRetention(ctx, vs[0].ResourceID, warehouse.Retention{MaxVersions: 3}); err != nil {
		t.Fatal(err)
	}
	for _, v := range vs[2:] {
		got, err := w.Body(ctx, v.ID)
		if err != nil || !bytes.Equal(got, hist[v.Seq-1]) {
			t.Fatalf("version %d: %v", v.Seq, err)
		}
	}
}

func TestConcurrentPutsOnOneResource(t *testing.T) {
	ctx := context.Background()
	w, db := newWarehouse(t, warehouse.Options{FullEvery: 4})
	var wg sync.WaitGroup
	errs := make(chan error, 40)
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 10 {
				body := []byte(fmt.Sprintf("<p>writer %d version %d</p>", g, i))
				if _, err := w.Put(ctx, &warehouse.Fetch{URL: "http://example.com/", FetchedAt: t0, Status: 200, Body: body}); err != nil {
					errs <- err
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	r, _ := db.FindResourceByURL(ctx, "http://example.com/")
	vs, n, _ := db.FindVersions(ctx, vigil.VersionFilter{ResourceID: r.ID})
	if n != 40 {
		t.Fatalf("%d versions, want 40", n)
	}
	for _, v := range vs {
		b, err := w.Body(ctx, v.ID)
		if err != nil || warehouse.Hash(b) != v.ContentHash {
			t.Fatalf("version %d: %v", v.Seq, err)
		}
	}
}

// TestSizeBudget reports the stored size of 100 versions of a 100 KB page
// changing 1 % a version against every version compressed in full.
func TestSizeBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("size report skipped in -short mode")
	}
	ctx := context.Background()
	hist := warehouse.SyntheticHistory(100, 100_000, 0.01, 42)
	codec, _ := zstd.New(0)
	var baseline int64
	for _, b := range hist {
		z, _ := codec.Compress(b)
		baseline += int64(len(z))
	}
	for _, tc := range []struct {
		k    int
		tree bool    // every tree delta kept
		max  float64 // per cent; 0: report only
	}{{16, false, 0}, {64, false, 5}, {64, true, 5}} {
		keep := 0
		if tc.tree {
			keep = -1
		}
		w, _ := newWarehouse(t, warehouse.Options{FullEvery: tc.k, TreeDeltas: tc.tree, TreeDeltaKeep: keep})
		var last *vigil.Version
		for i, body := range hist {
			last = put(t, w, "http://example.com/", i, body)
		}
		n, err := w.StoredBytes(ctx, last.ResourceID)
		if err != nil {
			t.Fatal(err)
		}
		ratio := 100 * float64(n) / float64(baseline)
		t.Logf("k=%d tree=%v: stored %d bytes, baseline %d, ratio %.2f%%", tc.k, tc.tree, n, baseline, ratio)
		if tc.max > 0 && ratio > tc.max {
			t.Errorf("k=%d tree=%v: %.2f%% of the baseline, budget %.0f%%", tc.k, tc.tree, ratio, tc.max)
		}
	}
}

// TestTwoWritersStoreOneChangeOnce: two warehouses on one store (two
// workers) that both fetched the same change, each having seen the same
// head, store it once; a fetch that differs, or a caller that does not
// say what it saw, is stored.
func TestTwoWritersStoreOneChangeOnce(t *testing.T) {
	ctx := context.Background()
	a, db := newWarehouse(t, warehouse.Options{})
	b, err := warehouse.New(db, warehouse.Options{Codec: mustCodec(t)})
	if err != nil {
		t.Fatal(err)
	}
	const url = "http://example.com/"
	fetch := func(w *warehouse.Warehouse, i int, body string, fail string, seen int64) *vigil.Version {
		t.Helper()
		v, err := w.Put(ctx, &warehouse.Fetch{URL: url, FetchedAt: t0.Add(time.Duration(i) * time.Minute), Status: 200,
			Body: []byte(body), Error: fail, CheckHead: true, HeadID: seen})
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	v1 := fetch(a, 0, "<p>one</p>", "", 0)
	if got := fetch(b, 1, "<p>one</p>", "", 0); got.ID != v1.ID {
		t.Errorf("the first version fetched by both: stored again as %d", got.ID)
	}
	v2 := fetch(a, 2, "<p>two</p>", "", v1.ID)
	if got := fetch(b, 3, "<p>two</p>", "", v1.ID); got.ID != v2.ID {
		t.Errorf("a change fetched by both: stored again as %d", got.ID)
	}
	v3 := fetch(a, 4, "", "connection refused", v2.ID)
	if got := fetch(b, 5, "", "connection refused", v2.ID); got.ID != v3.ID {
		t.Errorf("a failure met by both: stored again as %d", got.ID)
	}
	// Different from what the other stored: a new version.
	if got := fetch(b, 6, "", "timeout", v2.ID); got.ID == v3.ID {
		t.Error("another failure was taken for the stored one")
	}
	// The head the caller saw: stored, as Put without CheckHead always does.
	head, _ := db.LatestVersion(ctx, v1.ResourceID)
	if got := fetch(a, 7, "", "timeout", head.ID); got.ID == head.ID {
		t.Error("a fetch the caller chose to store on the head it saw was not stored")
	}
	if got := put(t, a, url, 8, []byte("<p>three</p>")); got.ID == 0 {
		t.Fatal("no version")
	}
	if got := put(t, b, url, 9, []byte("<p>three</p>")); got.Seq != 7 {
		t.Errorf("without CheckHead: seq %d, want 7 (a version each)", got.Seq)
	}
	_, n, _ := db.FindVersions(ctx, vigil.VersionFilter{ResourceID: v1.ResourceID})
	if n != 7 {
		t.Errorf("%d versions, want 7", n)
	}
}

func mustCodec(t *testing.T) *zstd.Codec {
	t.Helper()
	c, err := zstd.New(0)
	if err != nil {
		t.Fatal(err)
	}
	return c
}
