// Package storetest is the conformance suite that every vigil.Store
// backend runs: internal/sqlite always, internal/postgres when
// VIGIL_TEST_POSTGRES_DSN is set. It is imported by tests only.
//
// Each test opens a fresh, empty store with the function it is given, so a
// backend's tests decide isolation (a temporary file, a schema per test).
package storetest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

// Opener returns a fresh, empty store; it registers its own cleanup.
type Opener func(t *testing.T) vigil.Store

// Run runs the whole suite against the stores open returns.
func Run(t *testing.T, open Opener) {
	tests := map[string]func(*testing.T, vigil.Store){
		"ResourceEnsure":            testResourceEnsure,
		"ResourceFind":              testResourceFind,
		"ResourceDelete":            testResourceDelete,
		"VersionAppend":             testVersionAppend,
		"VersionReadAsText":         testVersionReadAsText,
		"VersionsReadAsTextUnknown": testVersionsReadAsTextUnknown,
		"VersionConflict":           testVersionConflict,
		"VersionQueries":            testVersionQueries,
		"LatestVersionByURL":        testLatestVersionByURL,
		"VersionInvalid":            testVersionInvalid,
		"BodyEncodings":             testBodyEncodings,
		"BlobDedupe":                testBlobDedupe,
		"DeleteVersionsBefore":      testDeleteVersionsBefore,
		"Links":                     testLinks,
		"Sentinels":                 testSentinels,
		"SentinelClaim":             testSentinelClaim,
		"SentinelRelease":           testSentinelRelease,
		"SentinelsUpdated":          testSentinelsUpdatedTogether,
		"SentinelFeedRotation":      testSentinelFeedRotation,
		"SentinelFeedConcurrent":    testSentinelFeedRotationConcurrent,
		"Users":                     testUsers,
		"Tokens":                    testTokens,
		"Changes":                   testChanges,
		"ChangePages":               testChangePages,
		"ChangePagesOddURLs":        testChangePagesOddURLs,
		"IDsNeverReused":            testIDsNeverReused,
		"Outbox":                    testOutbox,
		"OutboxRetry":               testOutboxRetry,
		"OutboxRetryRemoved":        testOutboxRetryRemovedSentinel,
		"OutboxRetryTarget":         testOutboxRetryTarget,
		"OutboxRemovedDigests":      testSentinelRemovalGivesUpItsDigests,
		"OutboxStaleMarks":          testOutboxStaleMarks,
		"ConcurrentReadersWrite":    testConcurrent,
	}
	for _, name := range sortedKeys(tests) {
		t.Run(name, func(t *testing.T) { tests[name](t, open(t)) })
	}
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	for i := range keys {
		for j := i + 1; j < len(keys); j++ {
			if keys[j] < keys[i] {
				keys[i], keys[j] = keys[j], keys[i]
			}
		}
	}
	return keys
}

var t0 = time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)

func wantCode(t *testing.T, err error, code string) {
	t.Helper()
	if got := vigil.ErrorCode(err); got != code {
		t.Fatalf("error %v: code %q, want %q", err, got, code)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

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

func newUser(t *testing.T, s vigil.Store, email string) *vigil.User {
	t.Helper()
	u := &vigil.User{Email: email, Name: "Ada", PasswordHash: "$argon2id$x"}
	must(t, s.CreateUser(context.Background(), u))
	return u
}

func testSentinels(t *testing.T, s vigil.Store) {
	ctx := context.Background()
	u := newUser(t, s, "ada@example.com")
	sn := &vigil.Sentinel{OwnerID: u.ID, Name: "prices", Source: `sentinel "prices" { watch "http://example.com/" }`,
		Spec: json.RawMessage(`{"url":"http://example.com/"}`), Status: vigil.SentinelActive, NextCheck: t0}
	must(t, s.CreateSentinel(ctx, sn))
	if sn.ID == 0 || sn.CreatedAt.IsZero() {
		t.Fatalf("created %+v", sn)
	}
	got, err := s.FindSentinelByID(ctx, sn.ID)
	must(t, err)
	if got.Name != "prices" || string(got.Spec) != string(sn.Spec) || !got.NextCheck.Equal(t0) || got.Status != vigil.SentinelActive {
		t.Fatalf("read back %+v", got)
	}
	got.Status = vigil.SentinelPaused
	got.Name = "prices 2"
	must(t, s.UpdateSentinel(ctx, got))
	again, err := s.FindSentinelByID(ctx, sn.ID)
	must(t, err)
	if again.Status != vigil.SentinelPaused || again.Name != "prices 2" {
		t.Fatalf("after update %+v", again)
	}
	wantCode(t, s.CreateSentinel(ctx, &vigil.Sentinel{OwnerID: u.ID, Source: "x", Status: vigil.SentinelActive}), vigil.EINVALID)
	wantCode(t, s.CreateSentinel(ctx, &vigil.Sentinel{OwnerID: 9999, Name: "n", Source: "x", Status: vigil.SentinelActive}), vigil.ENOTFOUND)
	wantCode(t, s.UpdateSentinel(ctx, &vigil.Sentinel{ID: 9999, OwnerID: u.ID, Name: "n", Source: "x", Status: vigil.SentinelActive}), vigil.ENOTFOUND)
	u2 := newUser(t, s, "bob@example.com")
	must(t, s.CreateSentinel(ctx, &vigil.Sentinel{OwnerID: u2.ID, Name: "b", Source: "x", Status: vigil.SentinelActive}))
	list, n, err := s.FindSentinels(ctx, vigil.SentinelFilter{OwnerID: u.ID})
	must(t, err)
	if n != 1 || len(list) != 1 || list[0].ID != sn.ID {
		t.Fatalf("by owner: %d %v", n, list)
	}
	_, n, err = s.FindSentinels(ctx, vigil.SentinelFilter{Status: vigil.SentinelActive})
	must(t, err)
	if n != 1 {
		t.Fatalf("active: %d, want 1", n)
	}
	must(t, s.DeleteSentinel(ctx, sn.ID))
	_, err = s.FindSentinelByID(ctx, sn.ID)
	wantCode(t, err, vigil.ENOTFOUND)
	wantCode(t, s.DeleteSentinel(ctx, sn.ID), vigil.ENOTFOUND)
}

func testSentinelClaim(t *testing.T, s vigil.Store) {
	ctx := context.Background()
	u := newUser(t, s, "ada@example.com")
	var ids []int64
	for i := range 4 {
		sn := &vigil.Sentinel{OwnerID: u.ID, Name: fmt.Sprint("s", i), Source: "x", Status: vigil.SentinelActive,
			NextCheck: t0.Add(time.Duration(3-i) * time.Minute)}
		if i == 3 {
			sn.Status = vigil.SentinelPaused
		}
		must(t, s.CreateSentinel(ctx, sn))
		ids = append(ids, sn.ID)
	}
	now := t0.Add(10 * time.Minute)
	got, err := s.ClaimDueSentinels(ctx, now, time.Minute, 2)
	must(t, err)
	if len(got) != 2 || got[0].ID != ids[2] || got[1].ID != ids[1] || !got[0].NextCheck.Equal(now.Add(time.Minute)) {
		t.Fatalf("first claim %v", got)
	}
	got, err = s.ClaimDueSentinels(ctx, now, time.Minute, 10)
	must(t, err)
	if len(got) != 1 || got[0].ID != ids[0] {
		t.Fatalf("second claim %v (leased ones must not come back, paused never)", got)
	}
	got, err = s.ClaimDueSentinels(ctx, now, time.Minute, 10)
	must(t, err)
	if len(got) != 0 {
		t.Fatalf("third claim %v", got)
	}
	// After the lease, they are due again; a check moves them on.
	must(t, s.CheckedSentinel(ctx, ids[0], now, now.Add(time.Hour)))
	got, err = s.ClaimDueSentinels(ctx, now.Add(2*time.Minute), time.Minute, 10)
	must(t, err)
	if len(got) != 2 {
		t.Fatalf("after lease: %v", got)
	}
	sn, err := s.FindSentinelByID(ctx, ids[0])
	must(t, err)
	if !sn.LastCheck.Equal(now) || !sn.NextCheck.Equal(now.Add(time.Hour)) {
		t.Fatalf("checked: %+v", sn)
	}
	wantCode(t, s.CheckedSentinel(ctx, 9999, now, now), vigil.ENOTFOUND)
}

// testSentinelRelease: a scheduler stopping cleanly gives back the claims
// it did not check, and only those: a sentinel checked meanwhile, or
// claimed by another scheduler after the lease ended, keeps its NextCheck.
func testSentinelRelease(t *testing.T, s vigil.Store) {
	ctx := context.Background()
	u := newUser(t, s, "ada@example.com")
	var ids []int64
	for i := range 4 {
		sn := &vigil.Sentinel{OwnerID: u.ID, Name: fmt.Sprint("s", i), Source: "x", Status: vigil.SentinelActive,
			NextCheck: t0.Add(time.Duration(i) * time.Minute)}
		must(t, s.CreateSentinel(ctx, sn))
		ids = append(ids, sn.ID)
	}
	n, err := s.ReleaseSentinels(ctx, nil, t0)
	if err != nil || n != 0 {
		t.Fatalf("release of nothing: %d, %v", n, err)
	}
	// Scheduler A claims all four.
	now := t0.Add(10 * time.Minute)
	claimed, err := s.ClaimDueSentinels(ctx, now, 5*time.Minute, 10)
	must(t, err)
	if len(claimed) != 4 {
		t.Fatalf("claim: %v", claimed)
	}
	var leases []vigil.SentinelLease
	for _, c := range claimed {
		leases = append(leases, vigil.SentinelLease{SentinelID: c.ID, Until: c.NextCheck})
	}
	leases = append(leases, vigil.SentinelLease{SentinelID: 9999, Until: now.Add(5 * time.Minute)}) // gone
	// A checks s2; its lease ends and scheduler B claims s0.
	must(t, s.CheckedSentinel(ctx, ids[2], now, now.Add(time.Hour)))
	otherAt := now.Add(6 * time.Minute)
	other, err := s.ClaimDueSentinels(ctx, otherAt, 5*time.Minute, 1)
	must(t, err)
	if len(other) != 1 || other[0].ID != ids[0] {
		t.Fatalf("other scheduler's claim: %v", other)
	}
	// A stops and releases what it holds: s1 and s3 only.
	at := now.Add(7 * time.Minute)
	n, err = s.ReleaseSentinels(ctx, leases, at)
	must(t, err)
	if n != 2 {
		t.Fatalf("released %d, want 2 (s1, s3)", n)
	}
	want := map[int64]time.Time{ids[0]: otherAt.Add(5 * time.Minute), ids[1]: at, ids[2]: now.Add(time.Hour), ids[3]: at}
	for i, id := range ids {
		sn, err := s.FindSentinelByID(ctx, id)
		must(t, err)
		if !sn.NextCheck.Equal(want[id]) {
			t.Errorf("s%d: next check %v, want %v", i, sn.NextCheck, want[id])
		}
	}
	// The released ones are due at once; releasing again changes nothing.
	got, err := s.ClaimDueSentinels(ctx, at, 5*time.Minute, 10)
	must(t, err)
	if len(got) != 2 || got[0].ID != ids[1] || got[1].ID != ids[3] {
		t.Fatalf("claim after release: %v", got)
	}
	n, err = s.ReleaseSentinels(ctx, leases, at)
	if err != nil || n != 0 {
		t.Fatalf("second release: %d, %v; want 0", n, err)
	}
}

func testUsers(t *testing.T, s vigil.Store) {
	ctx := context.Background()
	u := newUser(t, s, "ada@example.com")
	err := s.CreateUser(ctx, &vigil.User{Email: "ada@example.com"})
	wantCode(t, err, vigil.ECONFLICT)
	wantCode(t, s.CreateUser(ctx, &vigil.User{Email: "nope"}), vigil.EINVALID)
	got, err := s.FindUserByEmail(ctx, "ada@example.com")
	must(t, err)
	if got.ID != u.ID || got.PasswordHash != u.PasswordHash {
		t.Fatalf("by email %+v", got)
	}
	got.Name = "Ada L."
	must(t, s.UpdateUser(ctx, got))
	byID, err := s.FindUserByID(ctx, u.ID)
	must(t, err)
	if byID.Name != "Ada L." {
		t.Fatalf("after update %+v", byID)
	}
	b := newUser(t, s, "bob@example.com")
	b.Email = "ada@example.com"
	wantCode(t, s.UpdateUser(ctx, b), vigil.ECONFLICT)
	must(t, s.DeleteUser(ctx, u.ID))
	_, err = s.FindUserByID(ctx, u.ID)
	wantCode(t, err, vigil.ENOTFOUND)
	_, err = s.FindUserByEmail(ctx, "ada@example.com")
	wantCode(t, err, vigil.ENOTFOUND)
	wantCode(t, s.DeleteUser(ctx, u.ID), vigil.ENOTFOUND)
}

func testTokens(t *testing.T, s vigil.Store) {
	ctx := context.Background()
	u := newUser(t, s, "ada@example.com")
	tok := &vigil.Token{UserID: u.ID, Name: "cli", Hash: vigil.HashToken("secret"), ExpiresAt: t0.Add(time.Hour)}
	must(t, s.CreateToken(ctx, tok))
	wantCode(t, s.CreateToken(ctx, &vigil.Token{UserID: u.ID, Hash: vigil.HashToken("secret")}), vigil.ECONFLICT)
	wantCode(t, s.CreateToken(ctx, &vigil.Token{UserID: 9999, Hash: vigil.HashToken("x")}), vigil.ENOTFOUND)
	got, err := s.FindTokenByHash(ctx, vigil.HashToken("secret"), t0)
	must(t, err)
	if got.ID != tok.ID || got.UserID != u.ID || !got.LastUsedAt.Equal(t0) {
		t.Fatalf("token %+v", got)
	}
	_, err = s.FindTokenByHash(ctx, vigil.HashToken("secret"), t0.Add(time.Hour))
	wantCode(t, err, vigil.EUNAUTHORIZED)
	_, err = s.FindTokenByHash(ctx, vigil.HashToken("other"), t0)
	wantCode(t, err, vigil.EUNAUTHORIZED)
	list, err := s.FindTokens(ctx, u.ID)
	must(t, err)
	if len(list) != 1 || !list[0].LastUsedAt.Equal(t0) {
		t.Fatalf("tokens %v", list)
	}
	must(t, s.DeleteToken(ctx, tok.ID))
	wantCode(t, s.DeleteToken(ctx, tok.ID), vigil.ENOTFOUND)
}

func testChanges(t *testing.T, s vigil.Store) {
	ctx := context.Background()
	u := newUser(t, s, "ada@example.com")
	sn := &vigil.Sentinel{OwnerID: u.ID, Name: "s", Source: "x", Status: vigil.SentinelActive}
	must(t, s.CreateSentinel(ctx, sn))
	r, err := s.EnsureResource(ctx, "http://example.com/")
	must(t, err)
	for i := range 5 {
		c := &vigil.Change{SentinelID: sn.ID, ResourceID: r.ID, FromVersion: int64(i), ToVersion: int64(i + 1),
			DetectedAt: t0.Add(time.Duration(i) * time.Hour), Summary: fmt.Sprint("change ", i), Records: json.RawMessage(`[{"op":"insert"}]`)}
		must(t, s.CreateChange(ctx, c))
	}
	got, n, err := s.FindChanges(ctx, vigil.ChangeFilter{SentinelID: sn.ID, Since: t0.Add(time.Hour), Until: t0.Add(4 * time.Hour)})
	must(t, err)
	if n != 3 || len(got) != 3 || got[0].Summary != "change 3" || got[2].Summary != "change 1" {
		t.Fatalf("range: %d %v", n, got)
	}
	c, err := s.FindChangeByID(ctx, got[0].ID)
	must(t, err)
	if string(c.Records) != `[{"op":"insert"}]` || c.ResourceID != r.ID {
		t.Fatalf("change %+v", c)
	}
	// Deleting the owner deletes the sentinel and its changes; an outbox
	// entry about a change loses the reference, not the message.
	note := &vigil.Notification{ChangeID: got[0].ID, Channel: "email", Target: "ada@example.com", Payload: json.RawMessage(`{}`)}
	must(t, s.EnqueueNotification(ctx, note))
	// A notification being delivered when its sentinel is removed: its
	// attempt fails after, and must not bring it back.
	inFlight := &vigil.Notification{ChangeID: got[0].ID, Channel: "email", Target: "ada@example.com", Payload: json.RawMessage(`{}`)}
	must(t, s.EnqueueNotification(ctx, inFlight))
	sent := &vigil.Notification{ChangeID: got[0].ID, Channel: "email", Target: "ada@example.com", Payload: json.RawMessage(`{}`)}
	must(t, s.EnqueueNotification(ctx, sent))
	must(t, s.MarkNotificationSent(ctx, sent.ID, t0))
	u2 := newUser(t, s, "bob@example.com")
	sn2 := &vigil.Sentinel{OwnerID: u2.ID, Name: "s2", Source: "x", Status: vigil.SentinelActive}
	must(t, s.CreateSentinel(ctx, sn2))
	c2 := &vigil.Change{SentinelID: sn2.ID, ResourceID: r.ID, ToVersion: 9, DetectedAt: t0}
	must(t, s.CreateChange(ctx, c2))
	// By owner: each user's changes only, with the resource's too.
	for _, tc := range []struct {
		f    vigil.ChangeFilter
		want int
	}{{vigil.ChangeFilter{OwnerID: u.ID}, 5}, {vigil.ChangeFilter{OwnerID: u2.ID}, 1}, {vigil.ChangeFilter{ResourceID: r.ID}, 6},
		{vigil.ChangeFilter{OwnerID: u2.ID, ResourceID: r.ID, Limit: 1}, 1}} {
		got, n, err := s.FindChanges(ctx, tc.f)
		must(t, err)
		if n != tc.want {
			t.Fatalf("%+v: %d changes, want %d", tc.f, n, tc.want)
		}
		for _, c := range got {
			if tc.f.OwnerID == u2.ID && c.SentinelID != sn2.ID {
				t.Fatalf("%+v: change %d of sentinel %d", tc.f, c.ID, c.SentinelID)
			}
		}
	}
	must(t, s.DeleteUser(ctx, u2.ID))
	_, err = s.FindSentinelByID(ctx, sn2.ID)
	wantCode(t, err, vigil.ENOTFOUND)
	_, err = s.FindChangeByID(ctx, c2.ID)
	wantCode(t, err, vigil.ENOTFOUND)
	must(t, s.DeleteSentinel(ctx, sn.ID))
	_, n5, err := s.FindChanges(ctx, vigil.ChangeFilter{SentinelID: sn.ID})
	must(t, err)
	if n5 != 0 {
		t.Fatalf("%d changes left after their sentinel went", n5)
	}
	must(t, s.MarkNotificationFailed(ctx, inFlight.ID, "503", t0.Add(time.Hour)))
	if n, err := s.FindNotificationByID(ctx, inFlight.ID); err != nil || n.State != vigil.NotificationDead || n.LastError != vigil.SentinelRemoved {
		t.Fatalf("an attempt failing after its sentinel went: %+v, %v; want it dead", n, err)
	}
	// The notification not yet sent is given up, not retried; the one sent
	// stays sent.
	kept, err := s.FindNotificationByID(ctx, note.ID)
	must(t, err)
	if kept.ChangeID != 0 || kept.State != vigil.NotificationDead || kept.LastError != vigil.SentinelRemoved {
		t.Fatalf("pending notification after its sentinel went: change %d, %s, %q", kept.ChangeID, kept.State, kept.LastError)
	}
	if kept, err = s.FindNotificationByID(ctx, sent.ID); err != nil || kept.State != vigil.NotificationSent || kept.ChangeID != 0 {
		t.Fatalf("sent notification after its sentinel went: %+v, %v", kept, err)
	}
	wantCode(t, s.CreateChange(ctx, &vigil.Change{SentinelID: 9999, ResourceID: r.ID, ToVersion: 1, DetectedAt: t0}), vigil.ENOTFOUND)
	wantCode(t, s.CreateChange(ctx, &vigil.Change{SentinelID: sn.ID, ResourceID: r.ID, DetectedAt: t0}), vigil.EINVALID)
	_, err = s.FindChangeByID(ctx, 9999)
	wantCode(t, err, vigil.ENOTFOUND)
}

// testIDsNeverReused deletes the newest sentinel and change and creates
// others: their ids must be new ones. A sentinel's feed URL is an HMAC of
// its id, and notifications link to changes by id: a reused id would hand
// another user's sentinel the old feed's subscribers.
func testIDsNeverReused(t *testing.T, s vigil.Store) {
	ctx := context.Background()
	u := newUser(t, s, "ada@example.com")
	r, err := s.EnsureResource(ctx, "http://example.com/")
	must(t, err)
	a := &vigil.Sentinel{OwnerID: u.ID, Name: "a", Source: "x", Status: vigil.SentinelActive}
	must(t, s.CreateSentinel(ctx, a))
	b := &vigil.Sentinel{OwnerID: u.ID, Name: "b", Source: "x", Status: vigil.SentinelActive}
	must(t, s.CreateSentinel(ctx, b))
	cb := &vigil.Change{SentinelID: b.ID, ResourceID: r.ID, ToVersion: 1, DetectedAt: t0}
	must(t, s.CreateChange(ctx, cb))
	must(t, s.DeleteSentinel(ctx, b.ID)) // and its change
	c := &vigil.Sentinel{OwnerID: u.ID, Name: "c", Source: "x", Status: vigil.SentinelActive}
	must(t, s.CreateSentinel(ctx, c))
	if c.ID <= b.ID {
		t.Fatalf("sentinel %d created after %d was deleted", c.ID, b.ID)
	}
	cc := &vigil.Change{SentinelID: c.ID, ResourceID: r.ID, ToVersion: 1, DetectedAt: t0}
	must(t, s.CreateChange(ctx, cc))
	if cc.ID <= cb.ID {
		t.Fatalf("change %d created after %d was deleted", cc.ID, cb.ID)
	}
	// The newest resource, with the newest version, deleted: neither id is
	// given to a resource or version of another URL, which a reader that
	// kept the ids (the monitor) would take for the deleted ones.
	gone, err := s.EnsureResource(ctx, "http://example.com/gone")
	must(t, err)
	gv := appendBody(t, s, gone, 0, t0, "gone")
	must(t, s.DeleteResource(ctx, gone.ID))
	next, err := s.EnsureResource(ctx, "http://example.com/next")
	must(t, err)
	if next.ID <= gone.ID {
		t.Fatalf("resource %d created after %d was deleted", next.ID, gone.ID)
	}
	if nv := appendBody(t, s, next, 0, t0, "next"); nv.ID <= gv.ID {
		t.Fatalf("version %d created after %d was deleted", nv.ID, gv.ID)
	}
}

func testOutbox(t *testing.T, s vigil.Store) {
	ctx := context.Background()
	u := newUser(t, s, "ada@example.com")
	var ids []int64
	for i := range 3 {
		n := &vigil.Notification{UserID: u.ID, Channel: "webhook", Target: "https://hooks.example/x",
			Payload: json.RawMessage(fmt.Sprintf(`{"n":%d}`, i)), NextAttempt: t0.Add(time.Duration(i) * time.Second)}
		must(t, s.EnqueueNotification(ctx, n))
		if n.State != vigil.NotificationPending {
			t.Fatalf("state %q", n.State)
		}
		ids = append(ids, n.ID)
	}
	wantCode(t, s.EnqueueNotification(ctx, &vigil.Notification{Channel: "email", Target: "a@b", Payload: json.RawMessage(`{`)}), vigil.EINVALID)
	now := t0.Add(time.Minute)
	got, err := s.ClaimNotifications(ctx, now, 30*time.Second, 2)
	must(t, err)
	if len(got) != 2 || got[0].ID != ids[0] || got[0].Attempts != 1 {
		t.Fatalf("claim %v", got)
	}
	more, err := s.ClaimNotifications(ctx, now, 30*time.Second, 10)
	must(t, err)
	if len(more) != 1 || more[0].ID != ids[2] {
		t.Fatalf("second claim %v", more)
	}
	must(t, s.MarkNotificationSent(ctx, ids[0], now))
	must(t, s.MarkNotificationFailed(ctx, ids[1], "503 from hook", now.Add(5*time.Minute)))
	must(t, s.MarkNotificationDead(ctx, ids[2], "410 gone"))
	// Only the failed one comes back, when due.
	got, err = s.ClaimNotifications(ctx, now.Add(time.Minute), time.Minute, 10)
	must(t, err)
	if len(got) != 0 {
		t.Fatalf("claimed before due: %v", got)
	}
	got, err = s.ClaimNotifications(ctx, now.Add(6*time.Minute), time.Minute, 10)
	must(t, err)
	if len(got) != 1 || got[0].ID != ids[1] || got[0].Attempts != 2 || got[0].LastError != "503 from hook" || got[0].State != vigil.NotificationFailed {
		t.Fatalf("retry claim %+v", got)
	}
	sent, err := s.FindNotificationByID(ctx, ids[0])
	must(t, err)
	if sent.State != vigil.NotificationSent || !sent.SentAt.Equal(now) || string(sent.Payload) != `{"n":0}` {
		t.Fatalf("sent %+v", sent)
	}
	dead, n, err := s.FindNotifications(ctx, vigil.NotificationFilter{State: vigil.NotificationDead})
	must(t, err)
	if n != 1 || dead[0].ID != ids[2] || dead[0].LastError != "410 gone" {
		t.Fatalf("dead %v", dead)
	}
	wantCode(t, s.MarkNotificationSent(ctx, 9999, now), vigil.ENOTFOUND)
	// Paged one at a time, in either order, each entry comes once.
	for _, desc := range []bool{false, true} {
		var got []int64
		for offset := range len(ids) + 1 {
			page, total, err := s.FindNotifications(ctx, vigil.NotificationFilter{UserID: u.ID, Descending: desc, Offset: offset, Limit: 1})
			must(t, err)
			if total != len(ids) {
				t.Fatalf("descending %v, offset %d: total %d, want %d", desc, offset, total, len(ids))
			}
			for _, n := range page {
				got = append(got, n.ID)
			}
		}
		want := ids
		if desc {
			want = []int64{ids[2], ids[1], ids[0]}
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("descending %v: pages list %v, want %v", desc, got, want)
		}
	}
}

// testOutboxRetry: a dead letter is retried on demand: it is pending
// again, due at the time given, with its attempts counted afresh (else the
// first failure would kill it again) and its last error kept until the
// next attempt. Only a dead letter is retried, and not one given up
// because its sentinel was removed. Listed newest first on demand.
func testOutboxRetry(t *testing.T, s vigil.Store) {
	ctx := context.Background()
	u := newUser(t, s, "ada@example.com")
	enqueue := func() int64 {
		n := &vigil.Notification{UserID: u.ID, Channel: "webhook", Target: "https://hooks.example/x",
			Payload: json.RawMessage(`{}`), NextAttempt: t0}
		must(t, s.EnqueueNotification(ctx, n))
		return n.ID
	}
	dead, pending, failed, sent, removed := enqueue(), enqueue(), enqueue(), enqueue(), enqueue()
	claimed, err := s.ClaimNotifications(ctx, t0, time.Minute, 10)
	must(t, err)
	if len(claimed) != 5 {
		t.Fatalf("claimed %d, want 5", len(claimed))
	}
	must(t, s.MarkNotificationDead(ctx, dead, "410 gone"))
	must(t, s.MarkNotificationFailed(ctx, failed, "503", t0.Add(time.Hour)))
	must(t, s.MarkNotificationSent(ctx, sent, t0))
	must(t, s.MarkNotificationDead(ctx, removed, vigil.SentinelRemoved))
	// pending is claimed: under its lease, pending still.

	at := t0.Add(2 * time.Hour)
	must(t, s.RetryNotification(ctx, dead, vigil.NotificationRetry{At: at}))
	n, err := s.FindNotificationByID(ctx, dead)
	must(t, err)
	if n.State != vigil.NotificationPending || n.Attempts != 0 || !n.NextAttempt.Equal(at) || n.LastError != "410 gone" {
		t.Errorf("retried: %+v, want pending, 0 attempts, due %v, its last error kept", n, at)
	}
	got, err := s.ClaimNotifications(ctx, at, time.Minute, 10)
	must(t, err)
	// The claimed one's lease and the failed one's back-off ended before.
	if len(got) != 3 || got[0].ID != pending || got[1].ID != failed || got[2].ID != dead || got[2].Attempts != 1 {
		t.Errorf("claim after the retry: %d entries, want the claimed, the failed, then the retried one at its first attempt", len(got))
	}
	// Back in their states, as the monitor's delivery leaves them.
	must(t, s.MarkNotificationDead(ctx, dead, "410 gone again"))
	must(t, s.MarkNotificationFailed(ctx, failed, "503", at.Add(time.Hour)))
	must(t, s.MarkNotificationSent(ctx, pending, at))
	pending = enqueue()
	for name, id := range map[string]int64{"pending": pending, "failed": failed, "sent": sent, "removed": removed} {
		wantCode(t, s.RetryNotification(ctx, id, vigil.NotificationRetry{At: at}), vigil.ECONFLICT)
		if name == "removed" {
			if n, _ := s.FindNotificationByID(ctx, id); n.State != vigil.NotificationDead {
				t.Errorf("the dead letter of a removed sentinel was retried: %+v", n)
			}
		}
	}
	wantCode(t, s.RetryNotification(ctx, 9999, vigil.NotificationRetry{At: at}), vigil.ENOTFOUND)
	must(t, s.RetryNotification(ctx, dead, vigil.NotificationRetry{At: at})) // dead again: retried again

	list, total, err := s.FindNotifications(ctx, vigil.NotificationFilter{UserID: u.ID, Descending: true, Limit: 2})
	must(t, err)
	if total != 6 || len(list) != 2 || list[0].ID != pending || list[1].ID != removed {
		t.Errorf("newest first: %d of %d, want %d and %d first", len(list), total, pending, removed)
	}
}

// testOutboxStaleMarks: the outcome of an attempt that comes after
// another has settled the entry does not undo it. A worker whose lease
// ended while it was sending (another claimed the entry and delivered it)
// records its failure late: the entry stays sent, else the dashboard
// would show a dead letter that its user retries, delivering it again.
// A dead letter given up because its sentinel was removed
// (DeleteSentinel, while an attempt was under way) keeps that reason when
// the attempt fails for good: it is not retried.
func testOutboxStaleMarks(t *testing.T, s vigil.Store) {
	ctx := context.Background()
	u := newUser(t, s, "ada@example.com")
	enqueue := func() int64 {
		n := &vigil.Notification{UserID: u.ID, Channel: "webhook", Target: "https://hooks.example/x",
			Payload: json.RawMessage(`{}`), NextAttempt: t0}
		must(t, s.EnqueueNotification(ctx, n))
		return n.ID
	}
	sent, removed := enqueue(), enqueue()
	if got, err := s.ClaimNotifications(ctx, t0, time.Minute, 10); err != nil || len(got) != 2 {
		t.Fatalf("first claim: %d entries, %v", len(got), err)
	}
	// The first worker's lease ends; a second claims both again.
	if got, err := s.ClaimNotifications(ctx, t0.Add(2*time.Minute), time.Minute, 10); err != nil || len(got) != 2 {
		t.Fatalf("claim after the lease: %d entries, %v", len(got), err)
	}
	must(t, s.MarkNotificationSent(ctx, sent, t0.Add(2*time.Minute)))
	must(t, s.MarkNotificationDead(ctx, removed, vigil.SentinelRemoved)) // as DeleteSentinel leaves it
	// The first worker's attempts end now, failed.
	for name, mark := range map[string]func(id int64) error{
		"failed": func(id int64) error { return s.MarkNotificationFailed(ctx, id, "timeout", t0.Add(time.Hour)) },
		"dead":   func(id int64) error { return s.MarkNotificationDead(ctx, id, "410 gone") },
	} {
		must(t, mark(sent))
		if n, err := s.FindNotificationByID(ctx, sent); err != nil || n.State != vigil.NotificationSent || n.LastError != "" {
			t.Errorf("a late attempt marked %s a sent entry: %+v %v; want it sent", name, n, err)
		}
		must(t, mark(removed))
		if n, err := s.FindNotificationByID(ctx, removed); err != nil || n.State != vigil.NotificationDead || n.LastError != vigil.SentinelRemoved {
			t.Errorf("a late attempt marked %s the dead letter of a removed sentinel: %+v %v; want %q kept", name, n, err, vigil.SentinelRemoved)
		}
	}
	for _, id := range []int64{sent, removed} {
		wantCode(t, s.RetryNotification(ctx, id, vigil.NotificationRetry{At: t0.Add(time.Hour)}), vigil.ECONFLICT)
	}
	wantCode(t, s.MarkNotificationDead(ctx, 9999, "x"), vigil.ENOTFOUND)
	wantCode(t, s.MarkNotificationFailed(ctx, 9999, "x", t0), vigil.ENOTFOUND)
}

// testConcurrent runs readers while one goroutine writes a stream of
// versions, and several writers on distinct resources.
func testConcurrent(t *testing.T, s vigil.Store) {
	ctx := context.Background()
	r, err := s.EnsureResource(ctx, "http://example.com/")
	must(t, err)
	first := appendBody(t, s, r, 0, t0, "v0")
	var wg sync.WaitGroup
	done := make(chan struct{})
	errs := make(chan error, 16)
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-done:
					return
				default:
				}
				v, err := s.LatestVersion(ctx, r.ID)
				if err != nil {
					errs <- err
					return
				}
				if _, err := s.Body(ctx, v.ID); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	prev := first.ID
	for i := range 30 {
		v := appendBody(t, s, r, prev, t0.Add(time.Duration(i+1)*time.Minute), fmt.Sprint("v", i+1))
		prev = v.ID
	}
	var ww sync.WaitGroup
	for w := range 3 {
		ww.Add(1)
		go func() {
			defer ww.Done()
			res, err := s.EnsureResource(ctx, fmt.Sprintf("http://w%d.example/", w))
			if err != nil {
				errs <- err
				return
			}
			var prev int64
			for i := range 10 {
				body := fmt.Sprint(w, "/", i)
				v := &vigil.Version{ResourceID: res.ID, FetchedAt: t0, ContentHash: Hash([]byte(body)), Size: int64(len(body))}
				if err := s.AppendVersion(ctx, &vigil.Append{Version: v, PrevID: prev, Blob: &vigil.Blob{Hash: v.ContentHash, Size: v.Size, Data: []byte(body)}}); err != nil {
					errs <- err
					return
				}
				prev = v.ID
			}
		}()
	}
	ww.Wait()
	close(done)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	st, err := s.Stats(ctx)
	must(t, err)
	if st.Versions != 61 {
		t.Fatalf("%d versions, want 61", st.Versions)
	}
}

// testChangePages: the pages the changes of some sentinels name (the
// resource each is recorded on, the pages a site's change lists in its
// records, by URL and resource id as written) are returned once each, with
// their sentinel, filtered by resource id or URL; a change's pages go with
// it.
func testChangePages(t *testing.T, s vigil.Store) {
	ctx := context.Background()
	u := newUser(t, s, "ada@example.com")
	site := &vigil.Sentinel{OwnerID: u.ID, Name: "site", Source: "x", Status: vigil.SentinelActive}
	must(t, s.CreateSentinel(ctx, site))
	page := &vigil.Sentinel{OwnerID: u.ID, Name: "page", Source: "x", Status: vigil.SentinelActive}
	must(t, s.CreateSentinel(ctx, page))
	var rs []*vigil.Resource
	for _, url := range []string{"http://a.example/", "http://a.example/guide", "http://a.example/faq", "http://b.example/"} {
		r, err := s.EnsureResource(ctx, url)
		must(t, err)
		rs = append(rs, r)
	}
	start, guide, faq, other := rs[0], rs[1], rs[2], rs[3]
	records := func(pages ...string) json.RawMessage {
		return json.RawMessage(`[` + strings.Join(pages, ",") + `]`)
	}
	changes := []*vigil.Change{
		{SentinelID: site.ID, ResourceID: start.ID, ToVersion: 1, DetectedAt: t0, Records: records(
			fmt.Sprintf(`{"op":"insert","kind":"page","page":{"url":%q,"resourceId":%d,"title":"Guide"}}`, guide.URL, guide.ID),
			`{"op":"delete","kind":"page","page":{"url":"http://a.example/gone"}}`)},
		{SentinelID: site.ID, ResourceID: start.ID, ToVersion: 2, DetectedAt: t0.Add(time.Hour), Records: records(
			fmt.Sprintf(`{"op":"update","kind":"page","page":{"url":%q,"resourceId":%d}}`, guide.URL, guide.ID),
			fmt.Sprintf(`{"op":"delete","kind":"page","page":{"url":%q}}`, faq.URL),
			fmt.Sprintf(`{"op":"delete","kind":"page","page":{"url":%q}}`, faq.URL),
			fmt.Sprintf(`{"op":"insert","kind":"page","page":{"url":%q}}`, guide.URL))},
		{SentinelID: page.ID, ResourceID: other.ID, FromVersion: 1, ToVersion: 2, DetectedAt: t0, Records: records(`{"op":"insert","kind":"text"}`)},
		{SentinelID: page.ID, ResourceID: other.ID, FromVersion: 2, ToVersion: 3, DetectedAt: t0, Records: json.RawMessage(`{"page":{"url":"http://c.example/"}}`)},
	}
	for _, c := range changes {
		must(t, s.CreateChange(ctx, c))
	}
	sp := func(sen *vigil.Sentinel, url string, id int64) vigil.ChangePage {
		return vigil.ChangePage{SentinelID: sen.ID, URL: url, ResourceID: id}
	}
	for _, tc := range []struct {
		name string
		f    vigil.ChangePageFilter
		want []vigil.ChangePage
	}{
		{"site", vigil.ChangePageFilter{SentinelIDs: []int64{site.ID}}, []vigil.ChangePage{sp(site, "", start.ID),
			sp(site, guide.URL, guide.ID), sp(site, guide.URL, 0), sp(site, "http://a.example/gone", 0), sp(site, faq.URL, 0)}},
		{"page", vigil.ChangePageFilter{SentinelIDs: []int64{page.ID}}, []vigil.ChangePage{sp(page, "", other.ID)}},
		{"none", vigil.ChangePageFilter{}, nil},
		{"by id", vigil.ChangePageFilter{SentinelIDs: []int64{site.ID, page.ID}, ResourceID: guide.ID}, []vigil.ChangePage{sp(site, guide.URL, guide.ID)}},
		{"by URL", vigil.ChangePageFilter{SentinelIDs: []int64{site.ID, page.ID}, URL: faq.URL}, []vigil.ChangePage{sp(site, faq.URL, 0)}},
		{"by id and URL", vigil.ChangePageFilter{SentinelIDs: []int64{site.ID}, ResourceID: guide.ID, URL: guide.URL},
			[]vigil.ChangePage{sp(site, guide.URL, guide.ID), sp(site, guide.URL, 0)}},
		{"by id or URL", vigil.ChangePageFilter{SentinelIDs: []int64{site.ID, page.ID}, ResourceID: other.ID, URL: faq.URL},
			[]vigil.ChangePage{sp(page, "", other.ID), sp(site, faq.URL, 0)}},
		{"recorded on", vigil.ChangePageFilter{SentinelIDs: []int64{site.ID}, ResourceID: start.ID}, []vigil.ChangePage{sp(site, "", start.ID)}},
		{"other sentinel's", vigil.ChangePageFilter{SentinelIDs: []int64{page.ID}, ResourceID: guide.ID}, nil},
		{"not named", vigil.ChangePageFilter{SentinelIDs: []int64{site.ID, page.ID}, URL: "http://c.example/"}, nil},
	} {
		got, err := s.FindChangePages(ctx, tc.f)
		must(t, err)
		if !samePages(got, tc.want) {
			t.Errorf("%s: %+v, want %+v", tc.name, got, tc.want)
		}
	}
	if got, err := s.FindChangePages(ctx, vigil.ChangePageFilter{SentinelIDs: []int64{site.ID}, Limit: 2}); err != nil || len(got) != 2 {
		t.Errorf("limit 2: %+v, %v", got, err)
	}
	// The changes go with the resource they are recorded on, and their
	// pages with them.
	must(t, s.DeleteResource(ctx, start.ID))
	if got, err := s.FindChangePages(ctx, vigil.ChangePageFilter{SentinelIDs: []int64{site.ID, page.ID}}); err != nil ||
		!samePages(got, []vigil.ChangePage{sp(page, "", other.ID)}) {
		t.Errorf("after the site's changes went: %+v, %v", got, err)
	}
	must(t, s.DeleteSentinel(ctx, page.ID))
	if got, err := s.FindChangePages(ctx, vigil.ChangePageFilter{SentinelIDs: []int64{page.ID}}); err != nil || len(got) != 0 {
		t.Errorf("after the sentinel went: %+v, %v", got, err)
	}
}

// testChangePagesOddURLs: the pages a change lists are indexed whatever
// their URLs as written: long ones (a signed link of thousands of random
// characters, past what a PostgreSQL index entry holds), and ones with
// characters that sort or compare oddly. Each is listed once and found by
// its URL, and no other URL finds it.
func testChangePagesOddURLs(t *testing.T, s vigil.Store) {
	ctx := context.Background()
	u := newUser(t, s, "ada@example.com")
	site := &vigil.Sentinel{OwnerID: u.ID, Name: "site", Source: "x", Status: vigil.SentinelActive}
	must(t, s.CreateSentinel(ctx, site))
	start, err := s.EnsureResource(ctx, "http://a.example/")
	must(t, err)
	var long []byte // 3,000 bytes no compression shortens
	for h := sha256.Sum256(nil); len(long) < 3000; h = sha256.Sum256(h[:]) {
		long = append(long, h[:]...)
	}
	urls := []string{
		"http://a.example/file.pdf?sig=" + hex.EncodeToString(long),
		"http://a.example/file.pdf?sig=" + hex.EncodeToString(long[:2999]),
		"http://a.example/caf\u00e9 d'\"x\"%20",
		"http://a.example/CAFÉ",
		"http://a.example/café",
		"http://a.example/cafe\u0301",
		"http://a.example/a\tb",
	}
	var recs []string
	for _, url := range urls {
		b, err := json.Marshal(url)
		must(t, err)
		recs = append(recs, `{"op":"delete","kind":"page","page":{"url":`+string(b)+`}}`)
	}
	for i := 0; i < 2; i++ { // the same pages twice
		must(t, s.CreateChange(ctx, &vigil.Change{SentinelID: site.ID, ResourceID: start.ID, ToVersion: int64(i + 1), DetectedAt: t0,
			Records: json.RawMessage("[" + strings.Join(recs, ",") + "]")}))
	}
	got, err := s.FindChangePages(ctx, vigil.ChangePageFilter{SentinelIDs: []int64{site.ID}})
	must(t, err)
	wantAll := []vigil.ChangePage{{SentinelID: site.ID, ResourceID: start.ID}}
	for _, url := range urls {
		wantAll = append(wantAll, vigil.ChangePage{SentinelID: site.ID, URL: url})
	}
	if !samePages(got, wantAll) {
		t.Errorf("pages: %d %+.80v, want %d", len(got), got, len(wantAll))
	}
	for _, p := range wantAll[1:] {
		got, err := s.FindChangePages(ctx, vigil.ChangePageFilter{SentinelIDs: []int64{site.ID}, URL: p.URL})
		must(t, err)
		if !samePages(got, []vigil.ChangePage{p}) {
			t.Errorf("by URL %.60q: %+.80v", p.URL, got)
		}
	}
	got, err = s.FindChangePages(ctx, vigil.ChangePageFilter{SentinelIDs: []int64{site.ID}, URL: "http://a.example/cafe"})
	must(t, err)
	if len(got) != 0 {
		t.Errorf("by a URL no change lists: %+v", got)
	}
}

// samePages reports whether a and b hold the same pages, in any order.
func samePages(a, b []vigil.ChangePage) bool {
	if len(a) != len(b) {
		return false
	}
	count := map[vigil.ChangePage]int{}
	for _, p := range a {
		count[p]++
	}
	for _, p := range b {
		if count[p]--; count[p] < 0 {
			return false
		}
	}
	return true
}
