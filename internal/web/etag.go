package web

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"net/http"
	"strings"

	"github.com/vigil-web/vigil"
)

// sentinelETag returns the strong entity tag of a sentinel's stored
// revision: a hash of what an edit replaces (its name, source, status and
// time zone) and of the time the store last updated it (UpdatedAt, set by
// every write of those). A check of the sentinel (its last and next
// check) leaves it as it is: a client's edit is not refused because the
// monitor ran. The store keeps no revision number, and adding one would
// take a migration; the hash leaves out the checked form (Spec), which
// PostgreSQL stores as jsonb, normalised, and which follows the source
// and UpdatedAt anyway.
func sentinelETag(sen *vigil.Sentinel) string {
	h := sha256.New()
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], uint64(sen.ID))
	h.Write(n[:])
	binary.BigEndian.PutUint64(n[:], uint64(sen.UpdatedAt.UnixMicro()))
	h.Write(n[:])
	for _, f := range []string{sen.Name, sen.Source, string(sen.Status), sen.TimeZone} {
		binary.BigEndian.PutUint64(n[:], uint64(len(f)))
		h.Write(n[:])
		h.Write([]byte(f))
	}
	return `"` + hex.EncodeToString(h.Sum(nil)[:16]) + `"`
}

// ifMatch returns the entity tags of a request's If-Match header fields,
// nil without one (then an edit is made whatever the stored revision:
// the last write wins).
func ifMatch(r *http.Request) []string {
	var tags []string
	for _, v := range r.Header.Values("If-Match") {
		for t := range strings.SplitSeq(v, ",") {
			if t = strings.TrimSpace(t); t != "" {
				tags = append(tags, t)
			}
		}
	}
	return tags
}

// sentinelMatches returns nil if the stored sentinel sen is the revision
// one of tags names (If-Match, by the strong comparison of RFC 9110
// §8.8.3.2: a weak tag never matches), or if tags holds "*"; else
// EPRECONDITION (412), saying that the sentinel was changed since.
func sentinelMatches(tags []string, sen *vigil.Sentinel) error {
	etag := sentinelETag(sen)
	for _, t := range tags {
		if t == "*" || t == etag {
			return nil
		}
	}
	return vigil.Errorf(vigil.EPRECONDITION,
		"sentinel %s was changed since it was read: If-Match %s is not its ETag %s; read it again (GET), and make the edit on what it is now",
		sen.Name, strings.Join(tags, ", "), etag)
}

// writeSentinel answers a sentinel with its ETag (sentinelETag).
func (s *Server) writeSentinel(w http.ResponseWriter, r *http.Request, status int, sen *vigil.Sentinel) {
	w.Header().Set("ETag", sentinelETag(sen))
	writeJSON(w, status, s.sentinelView(r.Context(), sen))
}
