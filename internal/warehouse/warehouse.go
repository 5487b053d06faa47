package warehouse

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/delta"
	"github.com/vigil-web/vigil/tree"
)

// Store is what the warehouse needs of a backend.
type Store interface {
	vigil.ResourceStore
	vigil.VersionStore
}

// DefaultFullEvery is the default k: a version whose Seq is a multiple of k
// is kept in full, so reading any version applies at most k-1 patches.
// It is 64, not 16, to meet the size budget (see doc.go).
const DefaultFullEvery = 64

// DefaultTreeDeltaKeep is how many of the newest versions keep their tree
// delta by default (see doc.go for why not all of them).
const DefaultTreeDeltaKeep = 16

// Options configure a Warehouse. Codec is required.
type Options struct {
	Codec vigil.BodyCodec
	// FullEvery is k (DefaultFullEvery if 0; 1 keeps every version in full).
	FullEvery int
	// TreeDeltas keeps, for each version whose successor differs and both
	// parse as HTML or XML, the XyDelta from the successor back to it, so
	// that Diff of consecutive versions needs no re-diff. It costs a parse
	// of both versions and a tree diff on every write.
	TreeDeltas bool
	// TreeDeltaKeep keeps tree deltas on the TreeDeltaKeep newest versions
	// only (older ones are dropped by a maintenance write after each
	// append): DefaultTreeDeltaKeep if 0, all of them if negative.
	TreeDeltaKeep int
	// ExtractLinks makes Put read a body it reads into a tree (markup, or
	// text read as its source) to find its links when the Fetch carries
	// none (ExtractLinks; ExtractTextLinks for a body read as its source
	// text: the URLs written in it), and so record why the body is read
	// as text. Off by default, and nothing in Vigil turns it on: the
	// monitor and import warc pass no Fetch.Links, and store no links (a
	// site's crawl keeps its pages' links in its snapshot).
	ExtractLinks bool
	// Retention applies after every append; its zero value keeps everything.
	Retention Retention
	Logger    *slog.Logger
	Now       func() time.Time
}

// Retention bounds what is kept per resource. The newest version is always
// kept. Zero fields do not bound.
type Retention struct {
	MaxAge      time.Duration // drop versions fetched longer ago than this
	MaxVersions int           // keep at most this many versions
	MaxBytes    int64         // keep the resource's stored bytes at most this
}

func (r Retention) zero() bool { return r == Retention{} }

// Warehouse stores and reads versions of resources: content hashing and
// deduplication, chain maintenance (the newest body in full, older ones as
// byte-exact backward patches with a full copy every k versions, optional
// tree deltas), retention, and reads of bytes, trees and diffs.
type Warehouse struct {
	store Store
	opt   Options
	log   *slog.Logger
	now   func() time.Time
	// locks serialise Puts to one resource within this process (striped by
	// resource id); across processes the store's ECONFLICT does.
	locks [64]sync.Mutex

	// heads caches the body of each resource's newest version, which the
	// next Put diffs against, so that a write need not decompress it.
	headsMu sync.Mutex
	heads   map[int64]cachedHead

	// fillBefore is where FillReadAsText's next batch starts: below this
	// version id (0: from the newest); fillTop is the highest id of the
	// pass under way, fillFloor that of the last pass completed, where
	// later passes stop but every fillWholeEvery-th (fillPasses counts
	// them); fillFailed holds the versions whose bodies it could not
	// read, which it passes over.
	fillMu     sync.Mutex
	fillBefore int64
	fillTop    int64
	fillFloor  int64
	fillPasses int
	fillFailed map[int64]bool

	// parsedBytes counts the bytes Document, Diff and DocumentDiff
	// parsed (ParsedBytes).
	parsedBytes atomic.Int64

	// goodBlobs holds the hashes of blobs found readable (blobCorrupt),
	// which a Put of their content does not read again; a read that
	// finds one corrupt (body) drops it.
	goodMu    sync.Mutex
	goodBlobs map[string]bool
}

// maxGoodBlobs bounds goodBlobs.
const maxGoodBlobs = 1 << 14

type cachedHead struct {
	versionID int64
	body      []byte
}

// maxCachedHeads bounds the head cache (bodies of up to this many
// resources are kept in memory).
const maxCachedHeads = 256

func (w *Warehouse) cachedHead(resourceID, versionID int64) []byte {
	w.headsMu.Lock()
	defer w.headsMu.Unlock()
	if h, ok := w.heads[resourceID]; ok && h.versionID == versionID {
		return h.body
	}
	return nil
}

func (w *Warehouse) cacheHead(resourceID, versionID int64, body []byte) {
	w.headsMu.Lock()
	defer w.headsMu.Unlock()
	if w.heads == nil {
		w.heads = map[int64]cachedHead{}
	}
	if _, ok := w.heads[resourceID]; !ok && len(w.heads) >= maxCachedHeads {
		for k := range w.heads { // evict one at random
			delete(w.heads, k)
			break
		}
	}
	w.heads[resourceID] = cachedHead{versionID, body}
}

// New returns a warehouse over store.
func New(store Store, opt Options) (*Warehouse, error) {
	if opt.Codec == nil {
		return nil, fmt.Errorf("warehouse: a body codec is required")
	}
	if opt.FullEvery == 0 {
		opt.FullEvery = DefaultFullEvery
	}
	if opt.TreeDeltaKeep == 0 {
		opt.TreeDeltaKeep = DefaultTreeDeltaKeep
	}
	if opt.FullEvery < 1 {
		return nil, fmt.Errorf("warehouse: FullEvery must be positive")
	}
	w := &Warehouse{store: store, opt: opt, log: opt.Logger, now: opt.Now}
	if w.log == nil {
		w.log = slog.New(slog.DiscardHandler)
	}
	if w.now == nil {
		w.now = time.Now
	}
	return w, nil
}

// Over returns a warehouse with w's options over store, with caches of
// its own: over a transaction of w's store (vigil.Transactor), so that
// what it stores is committed together or not at all. Nothing it caches
// outlives the transaction.
func (w *Warehouse) Over(store Store) *Warehouse {
	return &Warehouse{store: store, opt: w.opt, log: w.log, now: w.now}
}

// Store returns the warehouse's store.
func (w *Warehouse) Store() Store { return w.store }

// Fetch is one fetch of a URL, as the fetcher reports it. Its ETag and
// Charset are stored as given when they are text, as none when not
// (StorableText): callers need not check them.
type Fetch struct {
	URL string
	// FinalURL is the URL the body was read from, after redirects
	// (vigil.FetchResult.URL); "" for URL. The version records it when it
	// is not URL (vigil.VersionURL, Version.URL), and its links resolve
	// against it.
	FinalURL      string
	FetchedAt     time.Time // now if zero
	Status        int
	ETag          string
	LastModified  time.Time
	ContentType   string
	Charset       string
	FetchDuration time.Duration
	Error         string
	Body          []byte
	Links         []*vigil.Link
	// Delta, if the caller already diffed this body against the previous
	// version (the monitor does), is that forward delta: from the document
	// of version DeltaFrom as Document returns it (XIDs numbered afresh) to
	// this body's document. Put stores its inverse as DeltaFrom's tree
	// delta, sparing a second diff, if DeltaFrom is still the newest
	// version when the write happens; otherwise it is ignored.
	Delta     *delta.Delta
	DeltaFrom int64
	// CheckHead says that the caller decided to store this fetch having
	// seen HeadID as the resource's newest version (0: it had none). If
	// another writer has stored a newer version since, with the same body
	// and error, read from the same URL, Put returns that version rather
	// than a copy of it: two workers on one store that fetched one change
	// store it once.
	CheckHead bool
	HeadID    int64
}

// Hash returns the hex SHA-256 of body, a version's ContentHash.
func Hash(body []byte) string {
	h := sha256.Sum256(body)
	return hex.EncodeToString(h[:])
}

// StorableText returns s, or "" when it is no text both backends store:
// not UTF-8, or with a NUL. A server's ETag may hold any byte above 0x7F
// (obs-text) and a charset parameter a NUL (RFC 2231's %00); PostgreSQL
// refuses either in a text column, which failed the version's store at
// every check of its page (and a whole WARC import), and SQLite would
// keep what PostgreSQL cannot. Without its ETag the page is fetched whole
// each time, as from a server that sends none; without its charset its
// body is read as one that declares none.
func StorableText(s string) string {
	if !utf8.ValidString(s) || strings.IndexByte(s, 0) >= 0 {
		return ""
	}
	return s
}

// Put stores f as the newest version of its URL's resource and returns it.
// An ETag or a charset that is no text is stored as none (StorableText),
// and so is a LastModified no store keeps (vigil.StorableTime: before
// 1677 or past 2262). It returns EINVALID for a bad URL, metadata (a
// FetchedAt no store keeps among them) or link of Fetch.Links, and then
// stores nothing, not even the resource. A stored blob of the same
// content (of an earlier version, of another page) that cannot be read
// (it does not decompress, or not to its hash) is replaced by the body
// fetched, in the append's transaction, so that the versions that share
// it read again; a blob found good is not read again by a Put, only once
// a read of it fails. A concurrent Put to the same
// resource makes the store refuse with ECONFLICT; Put then retries on the
// new head, a few times.
func (w *Warehouse) Put(ctx context.Context, f *Fetch) (*vigil.Version, error) {
	v, _, err := w.PutStored(ctx, f)
	return v, err
}

// PutStored is Put, also saying whether it stored a new version: false
// when the store held the fetch already (another writer of one fetch
// stored it, vigil.Append.Existing, or the head holds it,
// Fetch.CheckHead) and the version returned is that one.
func (w *Warehouse) PutStored(ctx context.Context, f *Fetch) (*vigil.Version, bool, error) {
	at := f.FetchedAt
	if at.IsZero() {
		at = w.now()
	}
	v := &vigil.Version{FetchedAt: at.UTC(), Status: f.Status, ETag: StorableText(f.ETag),
		LastModified: f.LastModified, ContentType: f.ContentType, Charset: StorableText(f.Charset), Size: int64(len(f.Body)),
		ContentHash: Hash(f.Body), FetchDuration: f.FetchDuration, Error: f.Error, URL: vigil.VersionURL(f.URL, f.FinalURL)}
	if !vigil.StorableTime(v.LastModified) {
		// A server's date no store keeps (before 1677 or past 2262):
		// as none, as for an ETag that is no text, rather than refuse
		// the fetch.
		v.LastModified = time.Time{}
	}
	if !v.LastModified.IsZero() {
		v.LastModified = v.LastModified.UTC()
	}
	// The version and the caller's links are checked before its resource
	// is made, so that a Put refused leaves nothing behind.
	if err := v.ValidateFetch(); err != nil {
		return nil, false, err
	}
	for _, l := range f.Links {
		if l.Source == "" {
			l.Source = f.URL
		}
		if l.Type == "" {
			l.Type = vigil.ClassifyLink(l.Source, l.Target)
		}
		if err := l.Validate(); err != nil {
			return nil, false, err
		}
	}
	r, err := w.store.EnsureResource(ctx, f.URL)
	if err != nil {
		return nil, false, err
	}
	v.ResourceID = r.ID
	// Why the body is read as its source text is recorded with the
	// version when Put reads the body anyway (to extract its links), or
	// when it is known without parsing (a body not read at all, one served
	// as text that is not markup: textReason); Put does not read a body
	// only to learn it: a caller that reads it records it
	// (RecordReadAsText), else it is read when first asked for
	// (ReadAsText), or in the background (FillReadAsText).
	if reason, known := textReason(f.Body, v); known {
		v.ReadAsText, v.TreeReading = reason, treeReading
	}
	links, extract := f.Links, f.Links == nil && w.opt.ExtractLinks && readable(v)
	// The new version is the newest: its blob is most likely replaced by a
	// patch at the next write, so it is compressed fast; a version that
	// stays in full is recompressed for keeping then (prepare). It is
	// compressed on another goroutine while prepare encodes the previous
	// version against it, since the two are independent. A panic of the
	// codec there is returned as an error (a *vigil.PanicError), and the
	// write fails before anything is appended, rather than the process.
	var fast []byte
	compressed := vigil.Go(func() (err error) {
		fast, err = w.opt.Codec.CompressFast(f.Body)
		return err
	})
	blob := &vigil.Blob{Hash: v.ContentHash, Size: v.Size}
	mu := &w.locks[uint64(r.ID)%uint64(len(w.locks))]
	mu.Lock()
	defer mu.Unlock()
	// A stored blob of the same content that cannot be read is replaced
	// by this one, where the new version shared it and was as unreadable
	// as the versions before it.
	repair, err := w.blobCorrupt(ctx, v.ContentHash)
	if err != nil {
		return nil, false, err
	}
	waited, existing := false, false
	for attempt := 0; ; attempt++ {
		a, head, err := w.prepare(ctx, v, blob, links, f)
		if err == nil && a == nil {
			return head, false, nil
		}
		if a != nil {
			a.RepairBlob = repair
		}
		if err == nil && extract {
			// Read only once an append is due: a fetch another writer
			// stored meanwhile (Fetch.CheckHead) is not parsed for
			// nothing.
			extract = false
			doc, reason := readFetch(f.Body, v)
			v.ReadAsText, v.TreeReading = reason, treeReading
			links = versionLinks(doc, reason != "", r.URL, v.PageURL(r.URL))
			a.Links = links
		}
		if !waited {
			waited = true
			if err := <-compressed; err != nil {
				return nil, false, fmt.Errorf("compress: %w", err)
			}
			blob.Data = fast
		}
		if err != nil {
			return nil, false, err
		}
		err = w.store.AppendVersion(ctx, a)
		if vigil.ErrorCode(err) == vigil.ECONFLICT && attempt < 10 {
			w.log.Debug("append conflict, retrying", "resource", r.ID, "attempt", attempt)
			continue
		}
		if err != nil {
			return nil, false, err
		}
		existing = a.Existing
		if repair && !existing {
			w.blobRead(v.ContentHash, true) // the bytes of that hash, stored
		}
		break
	}
	w.cacheHead(r.ID, v.ID, bytes.Clone(f.Body))
	if err := w.maintain(ctx, v, f); err != nil {
		return v, !existing, err
	}
	return v, !existing, nil
}

// blobCorrupt reports whether the store holds a blob of hash that cannot
// be read: its data does not decompress, or not to bytes of that hash.
// A blob not stored is not corrupt. A blob found readable is not read
// again, until a read of it fails (blobRead): an unchanged fetch would
// read, decompress and hash its page's body whole at every Put.
func (w *Warehouse) blobCorrupt(ctx context.Context, hash string) (bool, error) {
	w.goodMu.Lock()
	good := w.goodBlobs[hash]
	w.goodMu.Unlock()
	if good {
		return false, nil
	}
	blob, err := w.store.FindBlob(ctx, hash)
	if vigil.ErrorCode(err) == vigil.ENOTFOUND {
		return false, nil
	} else if err != nil {
		return false, fmt.Errorf("read blob %s: %w", hash, err)
	}
	body, err := w.opt.Codec.Decompress(blob.Data)
	if err == nil && Hash(body) != hash {
		err = fmt.Errorf("its %d bytes have another hash, %s", len(body), Hash(body))
	}
	if err != nil {
		w.log.Warn("a stored blob cannot be read: replaced by the body fetched again", "hash", hash, "err", err)
		return true, nil
	}
	w.blobRead(hash, true)
	return false, nil
}

// blobRead records whether the stored blob of hash was read whole (good)
// or found corrupt, which the next Put of its content repairs.
func (w *Warehouse) blobRead(hash string, good bool) {
	w.goodMu.Lock()
	defer w.goodMu.Unlock()
	if !good {
		delete(w.goodBlobs, hash)
		return
	}
	if w.goodBlobs == nil || len(w.goodBlobs) >= maxGoodBlobs {
		w.goodBlobs = map[string]bool{}
	}
	w.goodBlobs[hash] = true
}

// readFetch reads the body of a fetch whose version is v, as ParseBody
// does: its tree (nil for a body not read: a failed fetch, an empty body,
// a body of another type, or one that cannot be read) and why it is read
// as its source text ("" for a page).
func readFetch(body []byte, v *vigil.Version) (*tree.Document, string) {
	if !readable(v) || len(body) == 0 {
		return nil, ""
	}
	doc, readAsText, err := ReadBody(body, v.Charset, v.ContentType)
	if err != nil {
		return nil, "" // larger than the parsers take: not read at all
	}
	return doc, ReadAsTextReason(readAsText)
}

// prepare builds the append of v, with its outgoing links, on the
// resource's current head, which it returns too (nil if the resource has
// no version). It returns no append when f.CheckHead finds that head
// already holds f (see Fetch.CheckHead).
func (w *Warehouse) prepare(ctx context.Context, v *vigil.Version, blob *vigil.Blob, links []*vigil.Link, f *Fetch) (*vigil.Append, *vigil.Version, error) {
	head, err := w.store.LatestVersion(ctx, v.ResourceID)
	if err != nil && vigil.ErrorCode(err) != vigil.ENOTFOUND {
		return nil, nil, err
	}
	if err != nil {
		head = nil
	} else if f.CheckHead && head.ID != f.HeadID && head.ContentHash == v.ContentHash && head.Error == v.Error && vigil.SameLinkBase(head.PageURL(f.URL), v.PageURL(f.URL)) {
		return nil, head, nil // stored by another writer meanwhile
	}
	a := &vigil.Append{Version: v, Blob: blob, Links: links} // the caller's completed by PutStored
	if head == nil {
		return a, nil, nil
	}
	a.PrevID = head.ID
	if head.ContentHash == v.ContentHash {
		return a, head, nil // the head keeps its blob, now shared with v
	}
	// A full copy every k versions; and before an empty body (a failed
	// fetch), against which a patch would be a full copy anyway.
	keepFull := head.Seq%int64(w.opt.FullEvery) == 0 || len(f.Body) == 0
	prev := w.cachedHead(v.ResourceID, head.ID)
	if prev == nil {
		if prev, err = w.Body(ctx, head.ID); errors.As(err, new(*unreadableError)) {
			// A head whose stored body is corrupt stays as it is, and
			// the new version, stored whole, follows it: re-encoded
			// against the new one it would be no more readable, and
			// failing here failed every later fetch of the page.
			w.log.Warn("the newest version's body cannot be read: kept as it is", "version", head.ID, "err", err)
			return a, head, nil
		} else if err != nil {
			return nil, nil, fmt.Errorf("read version %d: %w", head.ID, err)
		}
	}
	sb := &vigil.StoredBody{VersionID: head.ID, Encoding: vigil.BodyFull}
	if keepFull {
		data, err := w.opt.Codec.Compress(prev)
		if err != nil {
			return nil, nil, fmt.Errorf("compress version %d: %w", head.ID, err)
		}
		a.PrevBlob = &vigil.Blob{Hash: head.ContentHash, Size: head.Size, Data: data}
		if !w.opt.TreeDeltas && (f.Delta == nil || f.DeltaFrom != head.ID) {
			return a, head, nil
		}
	} else {
		patch, err := w.opt.Codec.Diff(f.Body, prev)
		if err != nil {
			return nil, nil, fmt.Errorf("diff version %d: %w", head.ID, err)
		}
		sb.Encoding, sb.Data = vigil.BodyPatch, patch
	}
	callers := f.Delta != nil && f.DeltaFrom == head.ID
	if callers {
		// Stored with the current reading's stamp, it will be trusted:
		// it must lead from the previous version to this one as read now.
		if err := checkStoredDelta(prev, head, f.Body, v, f.Delta); err != nil {
			w.log.Warn("the caller's delta does not lead to the new version; not stored", "version", head.ID, "err", err)
			callers = false
		}
	}
	if callers {
		td, err := w.encodeTreeDelta(delta.Invert(f.Delta), prev, f.Body)
		if err != nil {
			return nil, nil, fmt.Errorf("encode tree delta: %w", err)
		}
		sb.TreeDelta = td
	} else if w.opt.TreeDeltas {
		td, err := w.backwardTreeDelta(prev, head, f.Body, v)
		if err != nil {
			// Versions that cannot be diffed (too large to read) have no tree delta; their bytes
			// are kept all the same.
			w.log.Debug("no tree delta", "version", head.ID, "err", err)
		}
		sb.TreeDelta = td
	}
	a.Prev = sb
	return a, head, nil
}

// maintain runs the writes that follow an append: dropping old tree deltas
// and retention. Each is its own transaction and leaves every chain whole.
func (w *Warehouse) maintain(ctx context.Context, v *vigil.Version, f *Fetch) error {
	if w.opt.TreeDeltaKeep > 0 && (w.opt.TreeDeltas || f.Delta != nil) {
		old := v.Seq - int64(w.opt.TreeDeltaKeep) - 1
		if old >= 1 {
			prev, err := w.store.FindVersionBySeq(ctx, v.ResourceID, old)
			if err == nil {
				b, err := w.store.Body(ctx, prev.ID)
				if err != nil {
					return err
				}
				if b.TreeDelta != nil {
					b.TreeDelta = nil
					if err := w.store.ReplaceBody(ctx, b, nil); err != nil {
						return fmt.Errorf("drop tree delta of version %d: %w", prev.ID, err)
					}
				}
			} else if vigil.ErrorCode(err) != vigil.ENOTFOUND {
				return err
			}
		}
	}
	if !w.opt.Retention.zero() {
		if _, err := w.ApplyRetention(ctx, v.ResourceID, w.opt.Retention); err != nil {
			return fmt.Errorf("retention: %w", err)
		}
	}
	return nil
}

// Body returns exactly the bytes fetched for a version. It returns
// ENOTFOUND if the version does not exist.
//
// The walk down a chain reads several rows; a concurrent append may
// re-encode one of them in between (the head becomes a patch and its blob
// goes), so a walk that loses its way starts again from a fresh read.
func (w *Warehouse) Body(ctx context.Context, versionID int64) ([]byte, error) {
	return w.bodyFrom(ctx, versionID, nil)
}

// unreadableError is the error of a stored body that cannot be read for
// what is stored, not for the store's access to it: data the codec
// refuses, a blob gone, a cycle of patches. Its message is err's.
type unreadableError struct{ err error }

func (e *unreadableError) Error() string { return e.err.Error() }
func (e *unreadableError) Unwrap() error { return e.err }

// knownBody is the body of a version already read, which the walk down
// the chain of an older version of its resource stops at.
type knownBody struct {
	resourceID, versionID int64
	data                  []byte
}

// bodyFrom is Body, its walk down the chain stopping at known, if it
// passes it (nil: none).
func (w *Warehouse) bodyFrom(ctx context.Context, versionID int64, known *knownBody) ([]byte, error) {
	for attempt := 0; ; attempt++ {
		body, err := w.body(ctx, versionID, known)
		if err != nil && attempt < 3 {
			if _, verr := w.store.FindVersionByID(ctx, versionID); verr == nil {
				continue // the version exists: the chain moved under us
			}
		}
		return body, err
	}
}

func (w *Warehouse) body(ctx context.Context, versionID int64, known *knownBody) ([]byte, error) {
	// Walk the patch chain to a full body (or the known one), then apply
	// the patches back.
	var chain []*vigil.StoredBody
	seen := map[int64]bool{}
	id := versionID
	for {
		if seen[id] {
			// At the first repeat, not after going round. The stores
			// refuse to make a cycle; an older Vigil or a hand edit may
			// have. A cycle stored stays: bodyFrom reads again, in case
			// the chain moved under this walk, and finds it as soon.
			return nil, &unreadableError{fmt.Errorf("version %d: the chain of patches comes back on itself (a cycle) at version %d", versionID, id)}
		}
		seen[id] = true
		if known != nil && id == known.versionID {
			body := bytes.Clone(known.data)
			return w.applyChain(body, chain)
		}
		b, err := w.store.Body(ctx, id)
		if err != nil {
			return nil, err
		}
		if b.Encoding == vigil.BodyFull {
			v, err := w.store.FindVersionByID(ctx, id)
			if err != nil {
				return nil, err
			}
			blob, err := w.store.FindBlob(ctx, v.ContentHash)
			if vigil.ErrorCode(err) == vigil.ENOTFOUND {
				return nil, fmt.Errorf("version %d: %w", id, &unreadableError{err})
			} else if err != nil {
				return nil, fmt.Errorf("version %d: %w", id, err)
			}
			body, err := w.opt.Codec.Decompress(blob.Data)
			if err == nil && Hash(body) != v.ContentHash {
				// Bytes of another content (another page's blob, bits
				// flipped): told, not read as this version's.
				err = fmt.Errorf("its blob holds %d bytes of another hash, %s, not %s", len(body), Hash(body), v.ContentHash)
			}
			if err != nil {
				w.blobRead(v.ContentHash, false)
				return nil, fmt.Errorf("version %d: %w", id, &unreadableError{err})
			}
			return w.applyChain(body, chain)
		}
		chain = append(chain, b)
		id = b.BaseID
	}
}

// applyChain applies the patches of a walk down a chain (newest last) to
// the body it ended at.
func (w *Warehouse) applyChain(body []byte, chain []*vigil.StoredBody) ([]byte, error) {
	var err error
	for i := len(chain) - 1; i >= 0; i-- {
		if body, err = w.opt.Codec.Patch(body, chain[i].Data); err != nil {
			return nil, fmt.Errorf("version %d: %w", chain[i].VersionID, &unreadableError{err})
		}
	}
	return body, nil
}

// BodyBySeq returns the bytes of version seq of a resource.
func (w *Warehouse) BodyBySeq(ctx context.Context, resourceID, seq int64) ([]byte, error) {
	v, err := w.store.FindVersionBySeq(ctx, resourceID, seq)
	if err != nil {
		return nil, err
	}
	return w.Body(ctx, v.ID)
}

// StoredBytes returns what a resource's versions take in the store: its
// patches, tree deltas and the compressed size of each distinct blob its
// full versions use (shared blobs counted once per resource).
func (w *Warehouse) StoredBytes(ctx context.Context, resourceID int64) (int64, error) {
	sizes, err := w.store.BodySizes(ctx, resourceID)
	if err != nil {
		return 0, err
	}
	return storedBytes(sizes), nil
}

func storedBytes(sizes []vigil.BodySize) int64 {
	var n int64
	seen := map[string]bool{}
	for _, s := range sizes {
		n += s.TreeBytes
		if s.Encoding == vigil.BodyFull {
			if seen[s.Hash] {
				continue
			}
			seen[s.Hash] = true
		}
		n += s.Bytes
	}
	return n
}
