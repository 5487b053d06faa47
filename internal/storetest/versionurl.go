package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

// testVersionURL: the final URL a version's body was read from (a
// redirect's target, vigil.Version.URL) is stored with the version and
// read back by every query, a long one whole; a version read from its
// resource's own URL has none; a URL that is not canonical is refused,
// and nothing is stored.
func testVersionURL(t *testing.T, s vigil.Store) {
	ctx := context.Background()
	r, err := s.EnsureResource(ctx, "http://example.com/old")
	must(t, err)
	const final = "http://example.com/new/page"
	long := longURL(8000)
	v1 := appendBody(t, s, r, 0, t0, "own")
	add := func(prev int64, at time.Time, body, u string) *vigil.Version {
		t.Helper()
		v := &vigil.Version{ResourceID: r.ID, FetchedAt: at, Status: 200, ContentType: "text/html", Charset: "utf-8",
			Size: int64(len(body)), ContentHash: Hash([]byte(body)), URL: u}
		must(t, s.AppendVersion(ctx, &vigil.Append{Version: v, PrevID: prev,
			Blob: &vigil.Blob{Hash: v.ContentHash, Size: v.Size, Data: []byte("z:" + body)}}))
		return v
	}
	v2 := add(v1.ID, t0.Add(time.Hour), "moved", final)
	v3 := add(v2.ID, t0.Add(2*time.Hour), "moved far", long)
	want := map[int64]string{v1.ID: "", v2.ID: final, v3.ID: long}
	check := func(how string, v *vigil.Version, err error) {
		t.Helper()
		must(t, err)
		if w, ok := want[v.ID]; !ok || v.URL != w {
			t.Errorf("%s: version %d has url of %d bytes %.80q, want %.80q", how, v.ID, len(v.URL), v.URL, w)
		}
	}
	for _, id := range []int64{v1.ID, v2.ID, v3.ID} {
		v, err := s.FindVersionByID(ctx, id)
		check("FindVersionByID", v, err)
	}
	v, err := s.FindVersionBySeq(ctx, r.ID, 2)
	check("FindVersionBySeq", v, err)
	v, err = s.LatestVersion(ctx, r.ID)
	check("LatestVersion", v, err)
	if v.ID != v3.ID {
		t.Errorf("LatestVersion: %d, want %d", v.ID, v3.ID)
	}
	_, v, err = s.LatestVersionByURL(ctx, r.URL)
	check("LatestVersionByURL", v, err)
	v, err = s.VersionAt(ctx, r.ID, t0.Add(90*time.Minute))
	check("VersionAt", v, err)
	if v.ID != v2.ID {
		t.Errorf("VersionAt: %d, want %d", v.ID, v2.ID)
	}
	vs, _, err := s.FindVersions(ctx, vigil.VersionFilter{ResourceID: r.ID})
	must(t, err)
	if len(vs) != 3 {
		t.Fatalf("FindVersions: %d versions, want 3", len(vs))
	}
	for _, v := range vs {
		check("FindVersions", v, nil)
	}
	vs, err = s.FindVersionsReadAsTextUnknown(ctx, 1, 0, 10)
	must(t, err)
	for _, v := range vs {
		check("FindVersionsReadAsTextUnknown", v, nil)
	}

	bad := &vigil.Version{ResourceID: r.ID, FetchedAt: t0.Add(3 * time.Hour), ContentHash: Hash([]byte("x")), Size: 1, URL: "HTTP://Example.com/new/page#top"}
	wantCode(t, s.AppendVersion(ctx, &vigil.Append{Version: bad, PrevID: v3.ID, Blob: &vigil.Blob{Hash: bad.ContentHash, Size: 1, Data: []byte("x")}}), vigil.EINVALID)
	v, err = s.LatestVersion(ctx, r.ID)
	must(t, err)
	if v.ID != v3.ID {
		t.Errorf("after a refused append, the newest version is %d, want %d", v.ID, v3.ID)
	}
}
