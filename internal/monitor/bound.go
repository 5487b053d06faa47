package monitor

import vigil "github.com/vigil-web/vigil"

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
		kept, omitted := it.Change.FirstRecords(maxMessageRecords, maxMessageRecordBytes)
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
		item := *it // its delta, and how it reads the versions, as they are
		item.Change, item.RecordsOmitted = &c, omitted
		out.Changes[i] = &item
	}
	if out == nil {
		return msg
	}
	return out
}
