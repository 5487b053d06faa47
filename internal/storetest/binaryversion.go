package storetest

import (
	"context"
	"encoding/json"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

// appendFile appends a version of r saying that it answered a file (a
// binary document of type contentType whose body is not kept: status 200,
// no body, its error why it is not read with its size and digest,
// vigil.BinaryVersionError), as the monitor stores it, and returns it.
func appendFile(t *testing.T, s vigil.Store, r *vigil.Resource, prev int64, at time.Time, contentType string, size int64, digest string) *vigil.Version {
	t.Helper()
	why := vigil.BinaryVersionError("fetch "+r.URL+": binary content: "+contentType+" is not a text document", size, digest)
	v := &vigil.Version{ResourceID: r.ID, FetchedAt: at, Status: 200, ContentType: contentType, ContentHash: Hash(nil), Error: why}
	must(t, s.AppendVersion(context.Background(), &vigil.Append{Version: v, PrevID: prev,
		Blob: &vigil.Blob{Hash: v.ContentHash, Data: []byte("z:")}}))
	return v
}

// testBinaryVersions: a page that turns into a file (a PDF, an image), is
// stored as the file's version (appendFile), each read of it
// (FindVersionByID, FindVersions, LatestVersionByURL) gives it back as
// appended: a file's version (vigil.Version.Binary) with its content type,
// size and digest (BinaryFile, BinaryDigest), and its error to the byte,
// which is what tells another file from the same one stored again (the
// monitor's fileTurn). The page that comes back is a page's version
// again. The changes from the page to its file and back, which have no
// records, are written by RecordChecks with the sentinel's state and read
// back with their versions and summaries, in one message's order, and the
// state as each check wrote it (SentinelStates).
func testBinaryVersions(t *testing.T, s vigil.Store) {
	ctx := context.Background()
	checks, ok := s.(vigil.CheckStore)
	if !ok {
		t.Fatalf("%T is no vigil.CheckStore", s)
	}
	r, err := s.EnsureResource(ctx, "http://example.com/report")
	must(t, err)
	const digest = "sha256:638d223b3f122c027c954adb76117cf787b70a1c5a6c67e877fa34902ed03e1f"
	page := appendBody(t, s, r, 0, t0, "<p>a0</p>")
	file := appendFile(t, s, r, page.ID, t0.Add(time.Hour), "application/pdf", 4096, digest)
	other := appendFile(t, s, r, file.ID, t0.Add(2*time.Hour), "application/pdf", 4096, "sha256:"+Hash([]byte("another")))
	back := appendBody(t, s, r, other.ID, t0.Add(3*time.Hour), "<p>a1</p>")

	// isFile fails unless v, read by how, is the file's version want.
	isFile := func(how string, v, want *vigil.Version) {
		t.Helper()
		if v.ID != want.ID || !v.Binary() || v.Failed() || v.Status != 200 || v.ContentType != want.ContentType || v.Error != want.Error {
			t.Errorf("%s: version %d (status %d, %q, %q), want the file's %d (status 200, %q, %q)",
				how, v.ID, v.Status, v.ContentType, v.Error, want.ID, want.ContentType, want.Error)
		}
	}
	got, err := s.FindVersionByID(ctx, file.ID)
	must(t, err)
	isFile("FindVersionByID", got, file)
	if got.BinaryFile() != "application/pdf, 4096 bytes" || got.BinaryDigest() != digest {
		t.Errorf("the file's version reads as %q, %q; want %q, %q", got.BinaryFile(), got.BinaryDigest(), "application/pdf, 4096 bytes", digest)
	}
	again, err := s.FindVersionByID(ctx, other.ID)
	must(t, err)
	isFile("FindVersionByID", again, other)
	if again.Error == got.Error {
		t.Errorf("two files read with one error %q: another file reads as the same", got.Error)
	}
	vs, n, err := s.FindVersions(ctx, vigil.VersionFilter{ResourceID: r.ID})
	must(t, err)
	if n != 4 || len(vs) != 4 {
		t.Fatalf("FindVersions: %d versions, want 4", n)
	}
	for _, v := range vs {
		switch v.ID {
		case file.ID:
			isFile("FindVersions", v, file)
		case other.ID:
			isFile("FindVersions", v, other)
		default:
			if v.Binary() || v.Failed() {
				t.Errorf("FindVersions: page version %d reads as a file or a failure (status %d, %q, %q)", v.ID, v.Status, v.ContentType, v.Error)
			}
		}
	}
	_, latest, err := s.LatestVersionByURL(ctx, r.URL)
	must(t, err)
	if latest.ID != back.ID || latest.Binary() {
		t.Errorf("LatestVersionByURL after the page came back: version %d (binary %v), want the page's %d", latest.ID, latest.Binary(), back.ID)
	}

	u := newUser(t, s, "ada@example.com")
	sn := &vigil.Sentinel{OwnerID: u.ID, Name: "pages", Source: "x", Status: vigil.SentinelActive}
	must(t, s.CreateSentinel(ctx, sn))
	empty := json.RawMessage("[]")
	toFile := &vigil.Change{SentinelID: sn.ID, ResourceID: r.ID, FromVersion: page.ID, ToVersion: file.ID, DetectedAt: t0.Add(time.Hour),
		Summary: "the page turned into a file Vigil does not read (" + file.ContentType + ", 4096 bytes)", Records: empty}
	toPage := &vigil.Change{SentinelID: sn.ID, ResourceID: r.ID, FromVersion: other.ID, ToVersion: back.ID, DetectedAt: t0.Add(3 * time.Hour),
		Summary: "the file turned back into a page", Records: empty}
	text := &vigil.Change{SentinelID: sn.ID, ResourceID: r.ID, FromVersion: page.ID, ToVersion: back.ID, DetectedAt: t0.Add(3 * time.Hour),
		Summary: "any change: 1 text changed", Records: json.RawMessage(`[{"op":"update","kind":"text"}]`)}
	// stateIs fails unless the sentinel's stored state is want, after
	// the check of when.
	stateIs := func(when string, want json.RawMessage) {
		t.Helper()
		states, err := checks.SentinelStates(ctx, []int64{sn.ID})
		must(t, err)
		if got, ok := states[sn.ID]; !ok || !sameJSON(got, want) {
			t.Errorf("the state after %s: %s (stored %v), want %s", when, got, ok, want)
		}
	}
	fileState := json.RawMessage(`{"pages":{"http://example.com/report":{"file":1}}}`)
	must(t, checks.RecordChecks(ctx, []*vigil.CheckRecord{{SentinelID: sn.ID, CheckedAt: t0.Add(time.Hour), NextCheck: t0.Add(2 * time.Hour),
		State: fileState, Changes: []*vigil.Change{toFile}}}))
	stateIs("the page turned into a file", fileState)
	must(t, checks.RecordChecks(ctx, []*vigil.CheckRecord{{SentinelID: sn.ID, CheckedAt: t0.Add(3 * time.Hour), NextCheck: t0.Add(4 * time.Hour),
		State: json.RawMessage(`{}`), Changes: []*vigil.Change{toPage, text}}}))
	stateIs("the file turned back into a page", json.RawMessage(`{}`))
	cs, n, err := s.FindChanges(ctx, vigil.ChangeFilter{SentinelID: sn.ID})
	must(t, err)
	if n != 3 || len(cs) != 3 {
		t.Fatalf("FindChanges: %d changes, want 3", n)
	}
	slices.SortFunc(cs, func(a, b *vigil.Change) int { return int(a.ID - b.ID) })
	for i, want := range []*vigil.Change{toFile, toPage, text} {
		c := cs[i]
		if c.ID != want.ID || c.FromVersion != want.FromVersion || c.ToVersion != want.ToVersion || c.Summary != want.Summary ||
			c.Reading != nil || !sameJSON(c.Records, want.Records) {
			t.Errorf("change %d: %d (%q, versions %d to %d, records %s), want %d (%q, versions %d to %d, records %s)",
				i, c.ID, c.Summary, c.FromVersion, c.ToVersion, c.Records, want.ID, want.Summary, want.FromVersion, want.ToVersion, want.Records)
		}
	}
}

// sameJSON reports whether a and b are the same JSON value, however
// spaced and with their objects' keys in whatever order.
func sameJSON(a, b json.RawMessage) bool {
	var x, y any
	return json.Unmarshal(a, &x) == nil && json.Unmarshal(b, &y) == nil && reflect.DeepEqual(x, y)
}
