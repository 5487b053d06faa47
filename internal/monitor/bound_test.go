package monitor

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	vigil "github.com/vigil-web/vigil"
)

// TestBoundRecords: a message carries the first records of a large change
// and counts the rest; a small change goes whole, and the stored change
// is not touched.
func TestBoundRecords(t *testing.T) {
	records := func(n, size int) json.RawMessage {
		parts := make([]string, n)
		for i := range parts {
			parts[i] = fmt.Sprintf(`{"op":"update","text":"row %d %s"}`, i, strings.Repeat("x", size))
		}
		return json.RawMessage("[" + strings.Join(parts, ",") + "]")
	}
	big := &vigil.Change{ID: 1, Records: records(40000, 10)}
	wide := &vigil.Change{ID: 2, Records: records(50, 10000)}
	small := &vigil.Change{ID: 3, Records: records(3, 10)}
	msg := &vigil.Message{Changes: []*vigil.MessageItem{{Change: big, Delta: json.RawMessage(`{}`), DeltaReading: vigil.DeltaReadingText}, {Change: wide}, {Change: small}}}
	bigBefore := string(big.Records)

	out := boundRecords(msg)
	for i, want := range []struct{ kept, omitted int }{{maxMessageRecords, 40000 - maxMessageRecords}, {13, 37}, {3, 0}} {
		it := out.Changes[i]
		var kept []json.RawMessage
		if err := json.Unmarshal(it.Change.Records, &kept); err != nil {
			t.Fatal(err)
		}
		if len(kept) != want.kept || it.RecordsOmitted != want.omitted || len(it.Change.Records) > maxMessageRecordBytes {
			t.Errorf("change %d: %d records (%d bytes), %d omitted; want %d and %d", i+1, len(kept), len(it.Change.Records), it.RecordsOmitted, want.kept, want.omitted)
		}
		if it.Change.ID != msg.Changes[i].Change.ID {
			t.Errorf("change %d: id %d", i+1, it.Change.ID)
		}
		if in := msg.Changes[i]; string(it.Delta) != string(in.Delta) || it.DeltaReading != in.DeltaReading {
			t.Errorf("change %d: delta %s read %q, want %s read %q", i+1, it.Delta, it.DeltaReading, in.Delta, in.DeltaReading)
		}
	}
	if string(big.Records) != bigBefore || msg.Changes[0].RecordsOmitted != 0 {
		t.Error("the stored change or the message given was changed")
	}
	if out := boundRecords(&vigil.Message{Changes: []*vigil.MessageItem{{Change: small}}}); out.Changes[0].Change != small {
		t.Error("a small message was copied")
	}
}
