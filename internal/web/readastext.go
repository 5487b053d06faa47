package web

import (
	"context"
	"slices"

	"github.com/vigil-web/vigil"
)

// versionBody is a version as the API answers it: with how its body is
// read, and why as its source text.
type versionBody struct {
	*vigil.Version
	// URL is the version's final URL as the API shows it
	// (vigil.Version.ShownURL: the query values a redirect added, a
	// session token perhaps, hidden), in place of the one stored.
	URL string `json:"url,omitempty"`
	// Size and ContentHash are those of what the version read, in place
	// of the stored ones, which for a version without a body are an
	// empty body's (sizeAndHash): a client would take that hash for the
	// content's.
	Size        *int64 `json:"size,omitempty"`
	ContentHash string `json:"contentHash,omitempty"`
	// Reading is how the version's body is read, compared and shown:
	// readingPage, readingText or readingUnknown. Always present, so that
	// a client tells a page from a version whose reason is not known yet,
	// which ReadAsText alone (absent for both) does not.
	Reading string `json:"reading"`
	// ReadAsText is why the version's body is read, compared and shown as
	// its source text (Warehouse.ReadAsText: the parse error, in words, of
	// a body that does not parse as HTML or XML, or "served as
	// text/plain" for one served as text): set exactly when Reading is
	// readingText, absent otherwise, as before Reading was added.
	ReadAsText string `json:"readAsText,omitempty"`
	// File says what binary document (a PDF, an image) the version is of
	// (vigil.Version.Binary): its type, size and digest. Present only for
	// such a version, which has no body but is no failed fetch; a failed
	// fetch has its error and no file.
	File *versionFile `json:"file,omitempty"`
}

// The values of versionBody.Reading, and of changeBody's FromReading and
// ToReading.
const (
	// readingPage: the body is not read as its source text. It is read
	// as a tree of HTML or XML, or is not markup at all (a failed fetch,
	// an empty body, a body of another type: the version's error and
	// contentType tell those).
	readingPage = "page"
	// readingText: the body is read as its source text, as it does not
	// parse as HTML or XML, or as it is served as text that is not markup
	// (text/plain, JSON); readAsText says why.
	readingText = "text"
	// readingUnknown: not known yet. The version was stored before Vigil
	// recorded how it reads a body, or since without its body being read,
	// and its body was not read within the request's budget
	// (DefaultReadAsTextBudget), or cannot be read. A later request, or
	// the monitor in the background, finds it.
	readingUnknown = "unknown"
)

// reading returns how version id is read, and why as text (ReadAsText),
// from what readAsTextAll knows (why): readingUnknown for a version it
// left out.
func reading(why map[int64]string, id int64) (reading, readAsText string) {
	reason, known := why[id]
	switch {
	case !known:
		return readingUnknown, ""
	case reason != "":
		return readingText, reason
	}
	return readingPage, ""
}

// DefaultReadAsTextBudget is how many bytes of bodies one request (a
// history page of 200 versions, a diff page's two, a list of 500 versions
// or of changes naming up to 1000) parses at most to learn why versions not known yet
// are read as text: 4 MiB, some 70 ms of parsing at the 59 MB/s
// BENCHMARKS.md measures for HTML, and some 60 versions of a typical
// 64 KB page. A version past it is shown as not known yet; the monitor
// reads it in the background (warehouse.FillReadAsText).
const DefaultReadAsTextBudget = 4 << 20

// readAsTextAll returns why each version of vs is read as its source
// text, by version id (Warehouse.ReadAsTextAll): a version left out is
// shown without a reason, as not known yet. Its bodies parsed come to
// ReadAsTextBudget bytes at most. A version whose body cannot be read
// does not fail the page or list that shows it: the failures are logged,
// once for the request. It fails only on a server without a warehouse.
func (s *Server) readAsTextAll(ctx context.Context, vs []*vigil.Version) (map[int64]string, error) {
	budget := s.ReadAsTextBudget
	if budget == 0 {
		budget = DefaultReadAsTextBudget
	}
	wh, err := s.warehouse()
	if err != nil {
		return nil, err
	}
	known, failed := wh.ReadAsTextAll(ctx, vs, budget)
	if len(failed) > 0 {
		ids := make([]int64, 0, len(failed))
		for id := range failed {
			ids = append(ids, id)
		}
		slices.Sort(ids)
		s.logger().Warn("versions whose body cannot be read are shown without why each is read as text",
			"versions", ids, "version", ids[0], "err", failed[ids[0]])
	}
	return known, nil
}

// versionBodies returns the versions of list, of the resource at resURL,
// as the API answers them.
func (s *Server) versionBodies(ctx context.Context, resURL string, list []*vigil.Version) ([]*versionBody, error) {
	why, err := s.readAsTextAll(ctx, list)
	if err != nil {
		return nil, err
	}
	out := make([]*versionBody, len(list))
	for i, v := range list {
		out[i] = &versionBody{Version: v, URL: v.ShownURL(resURL), File: fileOf(v)}
		out[i].Size, out[i].ContentHash = sizeAndHash(v)
		out[i].Reading, out[i].ReadAsText = reading(why, v.ID)
	}
	return out, nil
}

// sizeAndHash returns the size and content hash of v as the API gives
// them: a body's length and SHA-256 for a version with a body (Error
// unset); for the version of a binary document, whose body is not kept,
// the document's length (as its file member gives it; nil if its version
// does not say it) and no hash, its file's digest identifying it; for a
// failed fetch, which read no body, neither.
func sizeAndHash(v *vigil.Version) (*int64, string) {
	switch {
	case v.Error == "":
		size := v.Size
		return &size, v.ContentHash
	case v.Binary():
		if size, ok := v.BinarySize(); ok {
			return &size, ""
		}
	}
	return nil, ""
}

// changeBody is a change as the API answers it: with how each of its two
// versions is read, and why as its source text.
type changeBody struct {
	*vigil.Change
	// FromReading and ToReading are the Reading of versions FromVersion
	// and ToVersion (versionBody); absent where there is no version to
	// read: a first sighting has no FromVersion, and retention may no
	// longer keep a version.
	FromReading string `json:"fromReading,omitempty"`
	ToReading   string `json:"toReading,omitempty"`
	// FromReadAsText and ToReadAsText are the ReadAsText of the two
	// versions: set exactly when FromReading, or ToReading, is
	// readingText.
	FromReadAsText string `json:"fromReadAsText,omitempty"`
	ToReadAsText   string `json:"toReadAsText,omitempty"`
}

// changeBodies returns the changes of list as the API answers them. A
// version several changes name (one change's new version is the next
// one's old) is read once.
func (s *Server) changeBodies(ctx context.Context, list []*vigil.Change) ([]*changeBody, error) {
	var vs []*vigil.Version
	seen := map[int64]bool{0: true} // 0: no version (a first sighting)
	kept := map[int64]bool{}        // the versions found
	for _, c := range list {
		for _, id := range []int64{c.FromVersion, c.ToVersion} {
			if seen[id] {
				continue
			}
			seen[id] = true
			v, err := s.Store.FindVersionByID(ctx, id)
			if vigil.ErrorCode(err) == vigil.ENOTFOUND {
				continue // no longer kept
			}
			if err != nil {
				return nil, err
			}
			vs = append(vs, v)
			kept[id] = true
		}
	}
	byID, err := s.readAsTextAll(ctx, vs)
	if err != nil {
		return nil, err
	}
	out := make([]*changeBody, len(list))
	for i, c := range list {
		b := &changeBody{Change: c}
		if kept[c.FromVersion] {
			b.FromReading, b.FromReadAsText = reading(byID, c.FromVersion)
		}
		if kept[c.ToVersion] {
			b.ToReading, b.ToReadAsText = reading(byID, c.ToVersion)
		}
		out[i] = b
	}
	return out, nil
}
