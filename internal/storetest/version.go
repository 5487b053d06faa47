package storetest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

// Hash returns the hex SHA-256 of body.
func Hash(body []byte) string {
	h := sha256.Sum256(body)
	return hex.EncodeToString(h[:])
}

// appendBody appends a version of r with body stored raw (stores never look
// inside blob data) and returns it.
func appendBody(t *testing.T, s vigil.Store, r *vigil.Resource, prev int64, at time.Time, body string) *vigil.Version {
	t.Helper()
	v := &vigil.Version{ResourceID: r.ID, FetchedAt: at, Status: 200, ContentType: "text/html", Charset: "utf-8",
		Size: int64(len(body)), ContentHash: Hash([]byte(body)), FetchDuration: 120 * time.Millisecond,
		ETag: `"x"`, LastModified: at.Add(-time.Hour)}
	must(t, s.AppendVersion(context.Background(), &vigil.Append{Version: v, PrevID: prev,
		Blob: &vigil.Blob{Hash: v.ContentHash, Size: v.Size, Data: []byte("z:" + body)}}))
	return v
}

func testResourceEnsure(t *testing.T, s vigil.Store) {
	ctx := context.Background()
	r1, err := s.EnsureResource(ctx, "HTTP://Example.com:80/a/./b#frag")
	must(t, err)
	if r1.ID == 0 || r1.URL != "http://example.com/a/b" || r1.Host != "example.com" || r1.CreatedAt.IsZero() {
		t.Fatalf("resource %+v", r1)
	}
	r2, err := s.EnsureResource(ctx, "http://example.com/a/b")
	must(t, err)
	if r2.ID != r1.ID || !r2.CreatedAt.Equal(r1.CreatedAt) {
		t.Fatalf("second ensure gave %+v, want %+v", r2, r1)
	}
	_, err = s.EnsureResource(ctx, "ftp://example.com/")
	wantCode(t, err, vigil.EINVALID)
}

func testResourceFind(t *testing.T, s vigil.Store) {
	ctx := context.Background()
	for _, u := range []string{"http://a.example/1", "http://b.example/1", "http://a.example/2", "https://a.example/3"} {
		_, err := s.EnsureResource(ctx, u)
		must(t, err)
	}
	host := "a.example"
	rs, n, err := s.FindResources(ctx, vigil.ResourceFilter{Host: &host})
	must(t, err)
	if n != 3 || len(rs) != 3 || rs[0].URL != "http://a.example/1" || rs[2].URL != "https://a.example/3" {
		t.Fatalf("by host: %d %v", n, rs)
	}
	rs, n, err = s.FindResources(ctx, vigil.ResourceFilter{Host: &host, Offset: 1, Limit: 1})
	must(t, err)
	if n != 3 || len(rs) != 1 || rs[0].URL != "http://a.example/2" {
		t.Fatalf("page: %d %v", n, rs)
	}
	r, err := s.FindResourceByURL(ctx, "http://B.example:80/1")
	must(t, err)
	got, err := s.FindResourceByID(ctx, r.ID)
	must(t, err)
	if got.URL != "http://b.example/1" {
		t.Fatalf("by id: %+v", got)
	}
	_, err = s.FindResourceByURL(ctx, "http://none.example/")
	wantCode(t, err, vigil.ENOTFOUND)
	_, err = s.FindResourceByID(ctx, 9999)
	wantCode(t, err, vigil.ENOTFOUND)
}

func testResourceDelete(t *testing.T, s vigil.Store) {
	ctx := context.Background()
	r, err := s.EnsureResource(ctx, "http://example.com/")
	must(t, err)
	v1 := appendBody(t, s, r, 0, t0, "one")
	v2 := appendBody(t, s, r, v1.ID, t0.Add(time.Hour), "two")
	must(t, s.ReplaceBody(ctx, &vigil.StoredBody{VersionID: v1.ID, Encoding: vigil.BodyPatch, BaseID: v2.ID, Data: []byte("p")}, nil))
	must(t, s.DeleteResource(ctx, r.ID))
	_, err = s.FindResourceByID(ctx, r.ID)
	wantCode(t, err, vigil.ENOTFOUND)
	_, err = s.FindVersionByID(ctx, v2.ID)
	wantCode(t, err, vigil.ENOTFOUND)
	_, err = s.FindBlob(ctx, v2.ContentHash)
	wantCode(t, err, vigil.ENOTFOUND)
	wantCode(t, s.DeleteResource(ctx, r.ID), vigil.ENOTFOUND)
}

func testVersionAppend(t *testing.T, s vigil.Store) {
	ctx := context.Background()
	r, err := s.EnsureResource(ctx, "http://example.com/")
	must(t, err)
	v1 := appendBody(t, s, r, 0, t0, "one")
	v2 := appendBody(t, s, r, v1.ID, t0.Add(time.Hour), "two")
	if v1.Seq != 1 || v2.Seq != 2 || v1.ID == 0 || v2.ID == v1.ID {
		t.Fatalf("seq/id: %+v %+v", v1, v2)
	}
	got, err := s.FindVersionByID(ctx, v2.ID)
	must(t, err)
	want := *v2
	if got.FetchedAt.Equal(want.FetchedAt) && got.LastModified.Equal(want.LastModified) {
		got.FetchedAt, got.LastModified = want.FetchedAt, want.LastModified
	}
	if *got != want {
		t.Fatalf("read back\n%+v\nwant\n%+v", got, want)
	}
	b, err := s.Body(ctx, v2.ID)
	must(t, err)
	if b.Encoding != vigil.BodyFull || b.BaseID != 0 {
		t.Fatalf("body %+v", b)
	}
	blob, err := s.FindBlob(ctx, v2.ContentHash)
	must(t, err)
	if string(blob.Data) != "z:two" || blob.Size != 3 {
		t.Fatalf("blob %+v", blob)
	}
	_, err = s.FindVersionByID(ctx, 12345)
	wantCode(t, err, vigil.ENOTFOUND)
	_, err = s.Body(ctx, 12345)
	wantCode(t, err, vigil.ENOTFOUND)
	// A resource that does not exist.
	v := &vigil.Version{ResourceID: 9999, FetchedAt: t0, ContentHash: Hash(nil)}
	wantCode(t, s.AppendVersion(ctx, &vigil.Append{Version: v, Blob: &vigil.Blob{Hash: v.ContentHash}}), vigil.ENOTFOUND)
}

// testVersionReadAsText: why a body is read as its source text, and the
// reading it was found under, are stored with the version and read back
// by every query; RecordReadAsText records them for a version stored
// without, and never replaces a later reading's with an earlier one's.
func testVersionReadAsText(t *testing.T, s vigil.Store) {
	ctx := context.Background()
	r, err := s.EnsureResource(ctx, "http://example.com/")
	must(t, err)
	v1 := appendBody(t, s, r, 0, t0, "unknown")
	v2 := &vigil.Version{ResourceID: r.ID, FetchedAt: t0.Add(time.Hour), Status: 200, ContentType: "text/html",
		Size: 4, ContentHash: Hash([]byte("deep")), ReadAsText: "parse HTML: elements nested more than 512 deep", TreeReading: 5}
	must(t, s.AppendVersion(ctx, &vigil.Append{Version: v2, PrevID: v1.ID, Blob: &vigil.Blob{Hash: v2.ContentHash, Size: 4, Data: []byte("z:deep")}}))
	check := func(when string, id int64, reason string, reading int) {
		t.Helper()
		got, err := s.FindVersionByID(ctx, id)
		must(t, err)
		if got.ReadAsText != reason || got.TreeReading != reading {
			t.Errorf("%s: version %d read as text %q under reading %d, want %q under %d", when, id, got.ReadAsText, got.TreeReading, reason, reading)
		}
	}
	check("appended without", v1.ID, "", 0)
	check("appended with", v2.ID, v2.ReadAsText, 5)
	vs, _, err := s.FindVersions(ctx, vigil.VersionFilter{ResourceID: r.ID})
	must(t, err)
	if len(vs) != 2 || vs[1].ReadAsText != v2.ReadAsText || vs[1].TreeReading != 5 {
		t.Errorf("FindVersions: %+v", vs)
	}
	if _, latest, err := s.LatestVersionByURL(ctx, r.URL); err != nil || latest.ReadAsText != v2.ReadAsText {
		t.Errorf("LatestVersionByURL: %+v, %v", latest, err)
	}
	must(t, s.RecordReadAsText(ctx, v1.ID, "parse XML: unexpected EOF", 6))
	check("recorded", v1.ID, "parse XML: unexpected EOF", 6)
	must(t, s.RecordReadAsText(ctx, v1.ID, "", 7))
	check("recorded again", v1.ID, "", 7)
	wantCode(t, s.RecordReadAsText(ctx, 12345, "", 5), vigil.ENOTFOUND)
	wantCode(t, s.RecordReadAsText(ctx, v1.ID, "x", 0), vigil.EINVALID)
	check("refused", v1.ID, "", 7)
	// A daemon of an older Vigil on the same store, reading bodies under
	// an earlier reading, leaves what a later one recorded.
	must(t, s.RecordReadAsText(ctx, v1.ID, "an earlier reading's", 6))
	check("under an earlier reading", v1.ID, "", 7)
	must(t, s.RecordReadAsText(ctx, v1.ID, "the same reading's", 7))
	check("under the same reading", v1.ID, "the same reading's", 7)
}

// testVersionsReadAsTextUnknown: the versions of every resource whose
// reason is not known under a reading are found highest id first, in
// batches below an id.
func testVersionsReadAsTextUnknown(t *testing.T, s vigil.Store) {
	ctx := context.Background()
	var unknown []int64 // highest id first
	for i, u := range []string{"http://a.example/", "http://b.example/"} {
		r, err := s.EnsureResource(ctx, u)
		must(t, err)
		v1 := appendBody(t, s, r, 0, t0, "a"+u)
		v2 := appendBody(t, s, r, v1.ID, t0.Add(time.Hour), "b"+u)
		must(t, s.RecordReadAsText(ctx, v2.ID, "", 5+i)) // known under 5 and 6
		unknown = append([]int64{v1.ID}, unknown...)
		if i == 0 {
			unknown = append([]int64{v2.ID}, unknown...) // known under 5 only: not under 6
		}
	}
	ids := func(vs []*vigil.Version) []int64 {
		var out []int64
		for _, v := range vs {
			out = append(out, v.ID)
		}
		return out
	}
	all, err := s.FindVersionsReadAsTextUnknown(ctx, 6, 0, 10)
	must(t, err)
	if got := ids(all); fmt.Sprint(got) != fmt.Sprint(unknown) {
		t.Errorf("not known under reading 6: %v, want %v", got, unknown)
	}
	first, err := s.FindVersionsReadAsTextUnknown(ctx, 6, 0, 2)
	must(t, err)
	rest, err := s.FindVersionsReadAsTextUnknown(ctx, 6, unknown[1], 2)
	must(t, err)
	if got := append(ids(first), ids(rest)...); fmt.Sprint(got) != fmt.Sprint(unknown) {
		t.Errorf("in batches of 2: %v, want %v", got, unknown)
	}
	if vs, err := s.FindVersionsReadAsTextUnknown(ctx, 1, 0, 10); err != nil || len(vs) != 2 {
		t.Errorf("not known under reading 1: %v, %v; want the two versions under none", ids(vs), err)
	}
	_, err = s.FindVersionsReadAsTextUnknown(ctx, 6, 0, 0)
	wantCode(t, err, vigil.EINVALID)
	_, err = s.FindVersionsReadAsTextUnknown(ctx, 0, 0, 10)
	wantCode(t, err, vigil.EINVALID)
}

func testVersionConflict(t *testing.T, s vigil.Store) {
	ctx := context.Background()
	r, err := s.EnsureResource(ctx, "http://example.com/")
	must(t, err)
	v1 := appendBody(t, s, r, 0, t0, "one")
	for _, prev := range []int64{0, v1.ID + 100} {
		v := &vigil.Version{ResourceID: r.ID, FetchedAt: t0, ContentHash: Hash([]byte("x")), Size: 1}
		err := s.AppendVersion(ctx, &vigil.Append{Version: v, PrevID: prev, Blob: &vigil.Blob{Hash: v.ContentHash, Size: 1, Data: []byte("x")}})
		wantCode(t, err, vigil.ECONFLICT)
	}
	// Nothing of the refused appends is left behind.
	_, n, err := s.FindVersions(ctx, vigil.VersionFilter{ResourceID: r.ID})
	must(t, err)
	if n != 1 {
		t.Fatalf("%d versions after conflicts, want 1", n)
	}
	_, err = s.FindBlob(ctx, Hash([]byte("x")))
	wantCode(t, err, vigil.ENOTFOUND)
}

func testVersionInvalid(t *testing.T, s vigil.Store) {
	ctx := context.Background()
	r, err := s.EnsureResource(ctx, "http://example.com/")
	must(t, err)
	cases := map[string]*vigil.Append{
		"no blob":      {Version: &vigil.Version{ResourceID: r.ID, FetchedAt: t0, ContentHash: Hash(nil)}},
		"bad hash":     {Version: &vigil.Version{ResourceID: r.ID, FetchedAt: t0, ContentHash: "abc"}, Blob: &vigil.Blob{Hash: "abc"}},
		"blob differs": {Version: &vigil.Version{ResourceID: r.ID, FetchedAt: t0, ContentHash: Hash(nil)}, Blob: &vigil.Blob{Hash: Hash([]byte("a"))}},
		"no time":      {Version: &vigil.Version{ResourceID: r.ID, ContentHash: Hash(nil)}, Blob: &vigil.Blob{Hash: Hash(nil)}},
		"bad link": {Version: &vigil.Version{ResourceID: r.ID, FetchedAt: t0, ContentHash: Hash(nil)}, Blob: &vigil.Blob{Hash: Hash(nil)},
			Links: []*vigil.Link{{Source: "http://example.com/", Target: "http://x/", Type: "sideways"}}},
	}
	for name, a := range cases {
		t.Run(name, func(t *testing.T) { wantCode(t, s.AppendVersion(ctx, a), vigil.EINVALID) })
	}
}

func testVersionQueries(t *testing.T, s vigil.Store) {
	ctx := context.Background()
	r, err := s.EnsureResource(ctx, "http://example.com/")
	must(t, err)
	var prev int64
	var vs []*vigil.Version
	for i := range 10 {
		v := appendBody(t, s, r, prev, t0.Add(time.Duration(i)*time.Hour), fmt.Sprint("body ", i))
		vs = append(vs, v)
		prev = v.ID
	}
	latest, err := s.LatestVersion(ctx, r.ID)
	must(t, err)
	if latest.ID != vs[9].ID {
		t.Fatalf("latest %d, want %d", latest.ID, vs[9].ID)
	}
	bySeq, err := s.FindVersionBySeq(ctx, r.ID, 4)
	must(t, err)
	if bySeq.ID != vs[3].ID {
		t.Fatalf("seq 4: %d, want %d", bySeq.ID, vs[3].ID)
	}
	_, err = s.FindVersionBySeq(ctx, r.ID, 11)
	wantCode(t, err, vigil.ENOTFOUND)
	// As of a time between two fetches: the earlier one.
	at, err := s.VersionAt(ctx, r.ID, t0.Add(3*time.Hour+30*time.Minute))
	must(t, err)
	if at.Seq != 4 {
		t.Fatalf("as of 3h30: seq %d, want 4", at.Seq)
	}
	at, err = s.VersionAt(ctx, r.ID, t0.Add(5*time.Hour))
	must(t, err)
	if at.Seq != 6 {
		t.Fatalf("as of 5h exactly: seq %d, want 6", at.Seq)
	}
	_, err = s.VersionAt(ctx, r.ID, t0.Add(-time.Second))
	wantCode(t, err, vigil.ENOTFOUND)
	// A time range [2h, 5h).
	got, n, err := s.FindVersions(ctx, vigil.VersionFilter{ResourceID: r.ID, Since: t0.Add(2 * time.Hour), Until: t0.Add(5 * time.Hour)})
	must(t, err)
	if n != 3 || len(got) != 3 || got[0].Seq != 3 || got[2].Seq != 5 {
		t.Fatalf("range: n=%d %v", n, seqs(got))
	}
	got, n, err = s.FindVersions(ctx, vigil.VersionFilter{ResourceID: r.ID, Descending: true, Limit: 2, Offset: 1})
	must(t, err)
	if n != 10 || len(got) != 2 || got[0].Seq != 9 || got[1].Seq != 8 {
		t.Fatalf("desc page: n=%d %v", n, seqs(got))
	}
	_, err = s.LatestVersion(ctx, 9999)
	wantCode(t, err, vigil.ENOTFOUND)
}

// testLatestVersionByURL: a URL's resource and its newest version in one
// call, as FindResourceByURL and LatestVersion give them apart; nil for a
// resource without versions, and each resource's own newest version.
func testLatestVersionByURL(t *testing.T, s vigil.Store) {
	ctx := context.Background()
	r, err := s.EnsureResource(ctx, "http://example.com/a")
	must(t, err)
	other, err := s.EnsureResource(ctx, "http://example.com/b")
	must(t, err)
	res, v, err := s.LatestVersionByURL(ctx, "HTTP://Example.com:80/a")
	must(t, err)
	if res.ID != r.ID || res.URL != r.URL || res.Host != r.Host || !res.CreatedAt.Equal(r.CreatedAt) || v != nil {
		t.Fatalf("no version yet: %+v, %+v; want %+v and none", res, v, r)
	}
	var prev, otherPrev int64
	var last *vigil.Version
	for i := range 3 {
		last = appendBody(t, s, r, prev, t0.Add(time.Duration(i)*time.Hour), fmt.Sprint("a ", i))
		prev = last.ID
		otherPrev = appendBody(t, s, other, otherPrev, t0.Add(time.Duration(i)*time.Hour+time.Minute), fmt.Sprint("b ", i)).ID
	}
	want, err := s.LatestVersion(ctx, r.ID)
	must(t, err)
	res, v, err = s.LatestVersionByURL(ctx, "http://example.com/a")
	must(t, err)
	if res.ID != r.ID || v == nil || v.ID != last.ID || v.ResourceID != r.ID || v.Seq != want.Seq || v.ETag != want.ETag ||
		!v.LastModified.Equal(want.LastModified) || !v.FetchedAt.Equal(want.FetchedAt) || v.ContentHash != want.ContentHash ||
		v.Status != want.Status || v.Size != want.Size || v.FetchDuration != want.FetchDuration || v.ContentType != want.ContentType ||
		v.Charset != want.Charset || v.Error != want.Error {
		t.Fatalf("newest: %+v, %+v; want %+v", res, v, want)
	}
	_, err = s.FindResourceByURL(ctx, "http://example.com/c")
	wantCode(t, err, vigil.ENOTFOUND)
	_, _, err = s.LatestVersionByURL(ctx, "http://example.com/c")
	wantCode(t, err, vigil.ENOTFOUND)
	_, _, err = s.LatestVersionByURL(ctx, "ftp://example.com/")
	wantCode(t, err, vigil.EINVALID)
}

func seqs(vs []*vigil.Version) []int64 {
	var out []int64
	for _, v := range vs {
		out = append(out, v.Seq)
	}
	return out
}

func testBodyEncodings(t *testing.T, s vigil.Store) {
	ctx := context.Background()
	r, err := s.EnsureResource(ctx, "http://example.com/")
	must(t, err)
	v1 := appendBody(t, s, r, 0, t0, "one")
	// The append of v2 re-encodes v1 as a patch against v2, atomically; v1's
	// blob is no longer used and goes.
	v2 := &vigil.Version{ResourceID: r.ID, FetchedAt: t0.Add(time.Hour), ContentHash: Hash([]byte("two")), Size: 3}
	must(t, s.AppendVersion(ctx, &vigil.Append{Version: v2, PrevID: v1.ID, Blob: &vigil.Blob{Hash: v2.ContentHash, Size: 3, Data: []byte("z:two")},
		Prev: &vigil.StoredBody{VersionID: v1.ID, Encoding: vigil.BodyPatch, Data: []byte("patch"), TreeDelta: []byte("tree")}}))
	b1, err := s.Body(ctx, v1.ID)
	must(t, err)
	if b1.Encoding != vigil.BodyPatch || b1.BaseID != v2.ID || string(b1.Data) != "patch" || string(b1.TreeDelta) != "tree" {
		t.Fatalf("v1 body %+v", b1)
	}
	_, err = s.FindBlob(ctx, v1.ContentHash)
	wantCode(t, err, vigil.ENOTFOUND)
	sizes, err := s.BodySizes(ctx, r.ID)
	must(t, err)
	if len(sizes) != 2 || sizes[0].Bytes != 5 || sizes[0].TreeBytes != 4 || sizes[1].Bytes != 5 || sizes[1].Encoding != vigil.BodyFull {
		t.Fatalf("sizes %+v", sizes)
	}
	st, err := s.Stats(ctx)
	must(t, err)
	if st.Versions != 2 || st.Blobs != 1 || st.BlobBytes != 5 || st.Patches != 1 || st.PatchBytes != 5 || st.TreeDeltaBytes != 4 {
		t.Fatalf("stats %+v", st)
	}
	// v3 keeps v2 in full with a better encoding of its blob: the smaller
	// encoding wins, a larger one never replaces it.
	v3 := &vigil.Version{ResourceID: r.ID, FetchedAt: t0.Add(2 * time.Hour), ContentHash: Hash([]byte("three")), Size: 5}
	must(t, s.AppendVersion(ctx, &vigil.Append{Version: v3, PrevID: v2.ID, Blob: &vigil.Blob{Hash: v3.ContentHash, Size: 5, Data: []byte("z:three")},
		PrevBlob: &vigil.Blob{Hash: v2.ContentHash, Size: 3, Data: []byte("z2")}}))
	blob, err := s.FindBlob(ctx, v2.ContentHash)
	must(t, err)
	if string(blob.Data) != "z2" {
		t.Fatalf("smaller encoding not kept: %q", blob.Data)
	}
	must(t, s.ReplaceBody(ctx, &vigil.StoredBody{VersionID: v2.ID, Encoding: vigil.BodyFull}, &vigil.Blob{Hash: v2.ContentHash, Size: 3, Data: []byte("zzzzz:two")}))
	if blob, _ = s.FindBlob(ctx, v2.ContentHash); string(blob.Data) != "z2" {
		t.Fatalf("larger encoding replaced the smaller: %q", blob.Data)
	}
	v4 := &vigil.Version{ResourceID: r.ID, FetchedAt: t0.Add(3 * time.Hour), ContentHash: Hash([]byte("four")), Size: 4}
	wantCode(t, s.AppendVersion(ctx, &vigil.Append{Version: v4, PrevID: v3.ID, Blob: &vigil.Blob{Hash: v4.ContentHash, Size: 4, Data: []byte("4")},
		PrevBlob: &vigil.Blob{Hash: v2.ContentHash, Size: 3, Data: []byte("x")}}), vigil.EINVALID)
	// Materialise v1 again as a full copy.
	must(t, s.ReplaceBody(ctx, &vigil.StoredBody{VersionID: v1.ID, Encoding: vigil.BodyFull},
		&vigil.Blob{Hash: v1.ContentHash, Size: 3, Data: []byte("z:one")}))
	b1, err = s.Body(ctx, v1.ID)
	must(t, err)
	if b1.Encoding != vigil.BodyFull || b1.BaseID != 0 || b1.Data != nil {
		t.Fatalf("v1 body after materialise %+v", b1)
	}
	// Errors: a wrong blob, a base in another resource, an unknown version.
	wantCode(t, s.ReplaceBody(ctx, &vigil.StoredBody{VersionID: v1.ID, Encoding: vigil.BodyFull},
		&vigil.Blob{Hash: v2.ContentHash, Size: 3, Data: []byte("z:two")}), vigil.EINVALID)
	other, err := s.EnsureResource(ctx, "http://other.example/")
	must(t, err)
	ov := appendBody(t, s, other, 0, t0, "other")
	wantCode(t, s.ReplaceBody(ctx, &vigil.StoredBody{VersionID: v1.ID, Encoding: vigil.BodyPatch, BaseID: ov.ID, Data: []byte("p")}, nil), vigil.EINVALID)
	wantCode(t, s.ReplaceBody(ctx, &vigil.StoredBody{VersionID: 9999, Encoding: vigil.BodyFull}, nil), vigil.ENOTFOUND)
}

func testBlobDedupe(t *testing.T, s vigil.Store) {
	ctx := context.Background()
	a, err := s.EnsureResource(ctx, "http://a.example/")
	must(t, err)
	b, err := s.EnsureResource(ctx, "http://b.example/")
	must(t, err)
	va1 := appendBody(t, s, a, 0, t0, "same")
	va2 := appendBody(t, s, a, va1.ID, t0.Add(time.Hour), "same")
	vb1 := appendBody(t, s, b, 0, t0, "same")
	st, err := s.Stats(ctx)
	must(t, err)
	if st.Blobs != 1 || st.Versions != 3 {
		t.Fatalf("three versions of one body: %+v", st)
	}
	// The blob stays while any version uses it in full.
	must(t, s.DeleteResource(ctx, a.ID))
	blob, err := s.FindBlob(ctx, vb1.ContentHash)
	must(t, err)
	if string(blob.Data) != "z:same" {
		t.Fatalf("blob %q", blob.Data)
	}
	must(t, s.DeleteResource(ctx, b.ID))
	_, err = s.FindBlob(ctx, vb1.ContentHash)
	wantCode(t, err, vigil.ENOTFOUND)
	_ = va2
}

func testDeleteVersionsBefore(t *testing.T, s vigil.Store) {
	ctx := context.Background()
	r, err := s.EnsureResource(ctx, "http://example.com/")
	must(t, err)
	var vs []*vigil.Version
	var prev int64
	for i := range 5 {
		v := &vigil.Version{ResourceID: r.ID, FetchedAt: t0.Add(time.Duration(i) * time.Hour), ContentHash: Hash([]byte(fmt.Sprint(i))), Size: 1}
		a := &vigil.Append{Version: v, PrevID: prev, Blob: &vigil.Blob{Hash: v.ContentHash, Size: 1, Data: []byte(fmt.Sprint(i))}}
		if prev != 0 {
			a.Prev = &vigil.StoredBody{VersionID: prev, Encoding: vigil.BodyPatch, Data: []byte("p")}
		}
		must(t, s.AppendVersion(ctx, a))
		vs = append(vs, v)
		prev = v.ID
	}
	// Every version is a patch against its successor: dropping the oldest
	// two keeps every chain whole.
	n, err := s.DeleteVersionsBefore(ctx, r.ID, 3)
	must(t, err)
	if n != 2 {
		t.Fatalf("deleted %d, want 2", n)
	}
	_, err = s.FindVersionByID(ctx, vs[1].ID)
	wantCode(t, err, vigil.ENOTFOUND)
	// A chain that would break: make v3 a patch against... v3 is already a
	// patch against v4; make v4 a patch against v3 and v3 full, then try
	// to drop v3.
	must(t, s.ReplaceBody(ctx, &vigil.StoredBody{VersionID: vs[2].ID, Encoding: vigil.BodyFull}, &vigil.Blob{Hash: vs[2].ContentHash, Size: 1, Data: []byte("2")}))
	must(t, s.ReplaceBody(ctx, &vigil.StoredBody{VersionID: vs[3].ID, Encoding: vigil.BodyPatch, BaseID: vs[2].ID, Data: []byte("p")}, nil))
	_, err = s.DeleteVersionsBefore(ctx, r.ID, 4)
	wantCode(t, err, vigil.ECONFLICT)
	_, n2, err := s.FindVersions(ctx, vigil.VersionFilter{ResourceID: r.ID})
	must(t, err)
	if n2 != 3 {
		t.Fatalf("%d versions after refused delete, want 3", n2)
	}
	_, err = s.DeleteVersionsBefore(ctx, 9999, 3)
	wantCode(t, err, vigil.ENOTFOUND)
}

func testLinks(t *testing.T, s vigil.Store) {
	ctx := context.Background()
	r, err := s.EnsureResource(ctx, "http://example.com/")
	must(t, err)
	links := []*vigil.Link{
		{Source: r.URL, Target: "http://example.com/#top", Anchor: "top", Type: vigil.LinkInterior},
		{Source: r.URL, Target: "http://example.com/about", Anchor: "About us", Type: vigil.LinkLocal},
		{Source: r.URL, Target: "http://other.example/", Anchor: "", Type: vigil.LinkGlobal},
	}
	v := &vigil.Version{ResourceID: r.ID, FetchedAt: t0, ContentHash: Hash([]byte("x")), Size: 1}
	must(t, s.AppendVersion(ctx, &vigil.Append{Version: v, Blob: &vigil.Blob{Hash: v.ContentHash, Size: 1, Data: []byte("x")}, Links: links}))
	got, err := s.Links(ctx, v.ID)
	must(t, err)
	if len(got) != 3 {
		t.Fatalf("%d links", len(got))
	}
	for i := range got {
		if *got[i] != *links[i] || got[i].VersionID != v.ID {
			t.Errorf("link %d: %+v, want %+v", i, got[i], links[i])
		}
	}
}

// testAppendBackToPatchedContent: the head is stored as a patch (its
// blob gone) and the new version has the head's content: the append
// rewrites the head whole (Prev BodyFull) with no PrevBlob, the new
// version's blob being the head's too. Both backends store it, and the
// head reads back whole.
func testAppendBackToPatchedContent(t *testing.T, s vigil.Store) {
	ctx := context.Background()
	at := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	r, err := s.EnsureResource(ctx, "http://same.example/")
	must(t, err)
	v1 := appendBody(t, s, r, 0, at, "a")
	v2 := appendBody(t, s, r, v1.ID, at.Add(time.Hour), "b")
	must(t, s.ReplaceBody(ctx, &vigil.StoredBody{VersionID: v2.ID, Encoding: vigil.BodyPatch, BaseID: v1.ID, Data: []byte("p")}, nil))
	nv := &vigil.Version{ResourceID: r.ID, FetchedAt: at.Add(2 * time.Hour), Status: 200, Size: 1, ContentHash: Hash([]byte("b"))}
	must(t, s.AppendVersion(ctx, &vigil.Append{Version: nv, PrevID: v2.ID,
		Blob: &vigil.Blob{Hash: nv.ContentHash, Size: 1, Data: []byte("z:b")},
		Prev: &vigil.StoredBody{VersionID: v2.ID, Encoding: vigil.BodyFull}}))
	body, err := s.Body(ctx, v2.ID)
	must(t, err)
	if body.Encoding != vigil.BodyFull {
		t.Fatalf("the head's body after the append: %+v, want it whole", body)
	}
	if _, err := s.FindBlob(ctx, nv.ContentHash); err != nil {
		t.Fatalf("the blob of the head's content: %v", err)
	}
}
