package monitor

import (
	"encoding/json"

	vigil "github.com/vigil-web/vigil"
)

// A change to a large page can have tens of thousands of records (a table
// of 40 000 rows whose every row changed): carried whole, each webhook,
// stored notification and feed entry would be tens of megabytes. Messages
// carry the first records of each change, up to these bounds, and say how
// many they leave out; the stored change keeps them all, for the dashboard
// and the API.
const (
	maxMessageRecords     = 200
	maxMessageRecordBytes = 128 << 10
)

// boundRecords returns msg, or a copy whose changes carry at most
// maxMessageRecords records and maxMessageRecordBytes of them each, with
// RecordsOmitted set on the items cut.
func boundRecords(msg *vigil.Message) *vigil.Message {
	var out *vigil.Message
	for i, it := range msg.Changes {
		kept, omitted := cutRecords(it.Change.Records)
		if omitted == 0 {
			continue
		}
		if out == nil {
			cp := *msg
			cp.Changes = append([]*vigil.MessageItem(nil), msg.Changes...)
			out = &cp
		}
		c := *it.Change
		c.Records = kept
		out.Changes[i] = &vigil.MessageItem{Change: &c, Delta: it.Delta, RecordsOmitted: omitted}
	}
	if out == nil {
		return msg
	}
	return out
}

// cutRecords returns the first records of a JSON array within the bounds,
// and how many it leaves out.
func cutRecords(records json.RawMessage) (json.RawMessage, int) {
	if len(records) <= maxMessageRecordBytes && len(records) < 2*maxMessageRecords {
		return records, 0 // too short to hold more than the bound: no need to read it
	}
	var all []json.RawMessage
	if json.Unmarshal(records, &all) != nil {
		return records, 0
	}
	n, size := 0, 2
	for n < len(all) && n < maxMessageRecords && size+len(all[n])+1 <= maxMessageRecordBytes {
		size += len(all[n]) + 1
		n++
	}
	if n == len(all) {
		return records, 0
	}
	kept, err := json.Marshal(all[:n])
	if err != nil {
		return records, 0
	}
	return kept, len(all) - n
}
