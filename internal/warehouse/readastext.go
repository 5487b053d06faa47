package warehouse

import (
	"cmp"
	"context"
	"slices"

	"github.com/vigil-web/vigil"
)

// ReadAsText returns why version v's body is read as its source text: it
// does not parse as HTML or XML (the parse error, in words), or it is
// served as text that is not markup ("served as text/plain"); "" for a
// body read as a page, or not read at all (a failed fetch, an empty body,
// a body of another type). It is the reason
// recorded with the version (vigil.Version.ReadAsText) when recorded
// under the current reading of bodies into trees; otherwise (a version
// stored before reasons were recorded, or under another reading) it reads
// the body, once: what it finds is recorded for the next time, unless a
// later reading's is (a newer Vigil on the same store), which the store
// keeps, and which this one reads past each time.
func (w *Warehouse) ReadAsText(ctx context.Context, v *vigil.Version) (string, error) {
	if v.TreeReading == treeReading {
		return v.ReadAsText, nil
	}
	var body []byte
	if readable(v) {
		var err error
		if body, err = w.Body(ctx, v.ID); err != nil {
			return "", err
		}
	}
	return w.readAsText(ctx, v, body), nil
}

// ReadAsTextAll returns ReadAsText of the versions of vs, by version id:
// known holds the reason of each version it knows, failed the error of
// each whose body could not be read (a corrupt patch, a body that cannot
// be rebuilt), which known leaves out, as it does a version no longer kept
// (retention dropped it since it was listed), which has nothing to tell.
// One version that cannot be read does not keep the others from being
// known. It parses bodies of at most budget bytes in all (the versions'
// sizes): a version whose reason is not known and whose body does not fit
// in what is left is not read, and left out, for a later call or
// FillReadAsText to read; the newest versions of each resource are read
// first. The bodies it reads are read newest first, each walk down a
// resource's patch chain stopping at the body read before: a history
// costs one walk down its chain, not one for each version. When ctx
// ends, the versions not read yet are left out, not known yet, and none
// is reported as failed.
func (w *Warehouse) ReadAsTextAll(ctx context.Context, vs []*vigil.Version, budget int64) (known map[int64]string, failed map[int64]error) {
	known = make(map[int64]string, len(vs))
	var unknown []*vigil.Version
	for _, v := range vs {
		if v.TreeReading == treeReading {
			known[v.ID] = v.ReadAsText
		} else {
			unknown = append(unknown, v)
		}
	}
	slices.SortStableFunc(unknown, func(a, b *vigil.Version) int {
		return cmp.Or(cmp.Compare(a.ResourceID, b.ResourceID), cmp.Compare(b.Seq, a.Seq))
	})
	var last *knownBody
	for _, v := range unknown {
		if ctx.Err() != nil {
			break // ended: the rest not known yet, none failed
		}
		var body []byte
		if readable(v) && v.Size > 0 {
			if v.Size > budget {
				continue // not known yet
			}
			budget -= v.Size
			if last != nil && last.resourceID != v.ResourceID {
				last = nil
			}
			var err error
			body, err = w.bodyFrom(ctx, v.ID, last)
			if vigil.ErrorCode(err) == vigil.ENOTFOUND {
				if _, ferr := w.store.FindVersionByID(ctx, v.ID); vigil.ErrorCode(ferr) == vigil.ENOTFOUND {
					continue // dropped since it was listed
				}
			}
			if err != nil && ctx.Err() != nil {
				break // ended while reading: not a body that cannot be read
			}
			if err != nil {
				if failed == nil {
					failed = map[int64]error{}
				}
				failed[v.ID] = err
				last = nil // the next walk starts afresh
				continue
			}
			last = &knownBody{resourceID: v.ResourceID, versionID: v.ID, data: body}
		}
		known[v.ID] = w.readAsText(ctx, v, body)
	}
	return known, failed
}

// readAsText reads body, version v's, as ReadAsText does, and records
// what it finds.
func (w *Warehouse) readAsText(ctx context.Context, v *vigil.Version, body []byte) string {
	_, reason := readFetch(body, v)
	if err := w.store.RecordReadAsText(ctx, v.ID, reason, treeReading); err != nil && vigil.ErrorCode(err) != vigil.ENOTFOUND && ctx.Err() == nil {
		// Read again next time: the reason is right all the same. A
		// version retention dropped meanwhile has nothing to record, and
		// a request that ended records nothing more.
		w.log.Warn("recording why a version is read as text", "version", v.ID, "err", err)
	}
	return reason
}

// RecordReadAsText records with version versionID why its body is read
// as its source text, as a caller that read it with ReadBody found it
// (ReadAsTextReason; "" for a page), under the current reading: for a
// version Put stored without knowing it, so that ReadAsText need not
// read its body. It returns ENOTFOUND for no such version.
func (w *Warehouse) RecordReadAsText(ctx context.Context, versionID int64, reason string) error {
	return w.store.RecordReadAsText(ctx, versionID, reason, treeReading)
}

// FillReadAsTextBatch is how many versions FillReadAsText reads at most
// in one call.
const FillReadAsTextBatch = 32

// FillReadAsText reads, and records, why a batch of versions whose reason
// is not known yet is read as text, so that the reasons become known
// without a request paying for them: up to FillReadAsTextBatch versions
// of any resource, highest id first, whose bodies come to at most budget
// bytes (one version at least, whatever its size). Each call takes the
// batch after the previous one's; after the last it starts again from
// the newest, and goes down to the versions the pass before started
// with, at most (versions stored meanwhile, under an earlier reading). It
// returns how many versions it passed (0 once there are none left in
// this pass), the errors of the versions whose bodies could not be read
// (a corrupt patch), each reported once and passed over by this
// warehouse's later passes, and the error of a failed search.
func (w *Warehouse) FillReadAsText(ctx context.Context, budget int64) (int, map[int64]error, error) {
	w.fillMu.Lock()
	defer w.fillMu.Unlock()
	batch, err := w.store.FindVersionsReadAsTextUnknown(ctx, treeReading, w.fillBefore, FillReadAsTextBatch)
	if err != nil {
		return 0, nil, err
	}
	// What a completed pass went through, it left unknown only where a
	// body could not be read (passed over anyway) or a record failed (a
	// request, or a restart, reads it again): a pass stops there, rather
	// than walk it again at each call.
	for k, v := range batch {
		if v.ID <= w.fillFloor && w.fillPasses%fillWholeEvery != 0 {
			batch = batch[:k]
			break
		}
	}
	if len(batch) == 0 {
		w.fillFloor = max(w.fillFloor, w.fillTop)
		w.fillBefore = 0 // the next pass starts from the newest
		w.fillPasses++
		return 0, nil, nil
	}
	if w.fillBefore == 0 {
		w.fillTop = batch[0].ID // a pass starts
	}
	var todo []*vigil.Version
	n, spent := 0, int64(0)
	for _, v := range batch {
		if len(todo) > 0 && spent+v.Size > budget {
			break
		}
		n++
		if !w.fillFailed[v.ID] {
			todo = append(todo, v)
			spent += v.Size
		}
	}
	_, failed := w.ReadAsTextAll(ctx, todo, spent)
	if err := ctx.Err(); err != nil {
		return 0, nil, err // tried again next time
	}
	w.fillBefore = batch[n-1].ID
	for id := range failed {
		if w.fillFailed == nil {
			w.fillFailed = map[int64]bool{}
		}
		if len(w.fillFailed) < maxFillFailed {
			w.fillFailed[id] = true
		}
	}
	return n, failed, nil
}

// fillWholeEvery is how often FillReadAsText passes over every version
// not known, below the floor of the passes before too: on a store that
// several writers share, a version whose transaction committed once a
// pass had gone past its id is below that floor.
const fillWholeEvery = 64

// maxFillFailed bounds the versions whose bodies could not be read that
// FillReadAsText remembers to pass over; past it, one is tried, and
// reported, again each pass.
const maxFillFailed = 4096
