package warehouse

import "github.com/vigil-web/vigil/delta"

// TreeStampPrefix and TreeReading expose the stamp of stored tree deltas,
// and FillWholeEvery how often the background fill passes over every
// version, to the tests of package warehouse_test.
const (
	TreeStampPrefix = treeStampPrefix
	TreeReading     = treeReading
	FillWholeEvery  = fillWholeEvery
)

// LegacyTreeDelta returns d encoded as a stored tree delta is, without the
// stamp of a reading, as deltas were stored before stamps.
func LegacyTreeDelta(w *Warehouse, d *delta.Delta, older, newer []byte) ([]byte, error) {
	td, err := w.encodeTreeDelta(d, older, newer)
	if err != nil {
		return nil, err
	}
	compressed, _ := unstampTreeDelta(td)
	return compressed, nil
}
