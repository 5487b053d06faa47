package warehouse

import (
	"context"

	"github.com/vigil-web/vigil"
)

// ApplyRetention drops the oldest versions of a resource beyond what r
// allows and returns how many went. The newest version always stays.
//
// Bodies are kept as patches against *newer* versions, so dropping the
// oldest versions never breaks a chain. A version that stays and is a patch
// against one that goes (which the warehouse never writes, but another
// writer could) is first materialised as a full copy.
func (w *Warehouse) ApplyRetention(ctx context.Context, resourceID int64, r Retention) (int, error) {
	sizes, err := w.store.BodySizes(ctx, resourceID)
	if err != nil || len(sizes) <= 1 {
		return 0, err
	}
	cut := 0 // index of the first version kept
	if r.MaxVersions > 0 && len(sizes) > r.MaxVersions {
		cut = len(sizes) - r.MaxVersions
	}
	if r.MaxAge > 0 {
		limit := w.now().Add(-r.MaxAge)
		for cut < len(sizes)-1 && sizes[cut].FetchedAt.Before(limit) {
			cut++
		}
	}
	if r.MaxBytes > 0 {
		cut = bytesCut(sizes, cut, r.MaxBytes)
	}
	cut = min(cut, len(sizes)-1)
	if cut == 0 {
		return 0, nil
	}
	seq := sizes[cut].Seq
	// Materialise kept versions whose base goes.
	gone := map[int64]bool{}
	for _, s := range sizes[:cut] {
		gone[s.VersionID] = true
	}
	for _, s := range sizes[cut:] {
		if s.Encoding != vigil.BodyPatch {
			continue
		}
		b, err := w.store.Body(ctx, s.VersionID)
		if err != nil {
			return 0, err
		}
		if !gone[b.BaseID] {
			continue
		}
		body, err := w.Body(ctx, s.VersionID)
		if err != nil {
			return 0, err
		}
		data, err := w.opt.Codec.Compress(body)
		if err != nil {
			return 0, err
		}
		full := &vigil.StoredBody{VersionID: s.VersionID, Encoding: vigil.BodyFull, TreeDelta: b.TreeDelta}
		if err := w.store.ReplaceBody(ctx, full, &vigil.Blob{Hash: Hash(body), Size: int64(len(body)), Data: data}); err != nil {
			return 0, err
		}
	}
	n, err := w.store.DeleteVersionsBefore(ctx, resourceID, seq)
	if err != nil {
		return 0, err
	}
	w.log.Info("retention", "resource", resourceID, "dropped", n, "keptFromSeq", seq)
	return n, nil
}

// bytesCut returns the first index i at or after cut with
// storedBytes(sizes[i:]) <= maxBytes, or the newest version's index if
// there is none. One pass from the newest version down keeps the total of
// the suffix: a full version's blob counts once, at its oldest occurrence
// in the suffix (where storedBytes counts it).
func bytesCut(sizes []vigil.BodySize, cut int, maxBytes int64) int {
	last := len(sizes) - 1
	if cut >= last {
		return cut
	}
	found := last
	var total int64
	counted := map[string]int64{} // blob hash -> the bytes counted for it
	for i := last; i >= cut; i-- {
		s := sizes[i]
		total += s.TreeBytes + s.Bytes
		if s.Encoding == vigil.BodyFull {
			if prev, ok := counted[s.Hash]; ok {
				total -= prev
			}
			counted[s.Hash] = s.Bytes
		}
		if i < last && total <= maxBytes {
			found = i
		}
	}
	return found
}
