package feedback

import "fmt"

// The hygiene tags a visitor may add to a rating, in display order.
const (
	TagNoSoap      = "no_soap"
	TagNoPaper     = "no_paper"
	TagDirtyFloor  = "dirty_floor"
	TagDirtyToilet = "dirty_toilet"
	TagBadSmell    = "bad_smell"
	TagOutOfOrder  = "out_of_order"
)

// HygieneTags lists every hygiene tag in display order.
var HygieneTags = []string{TagNoSoap, TagNoPaper, TagDirtyFloor, TagDirtyToilet, TagBadSmell, TagOutOfOrder}

// checkTags reports unknown and repeated tags and returns the tags in the
// order of [HygieneTags], so that order does not change a submission.
func checkTags(v *Validator, tags []string) []string {
	if tags == nil {
		return nil
	}
	seen := map[string]bool{}
	for i, t := range tags {
		name := fmt.Sprintf("tags[%d]", i)
		if !v.Ensure(tagIndex(t) >= 0, name, RuleTag) {
			continue
		}
		v.Ensure(!seen[t], name, RuleRepeated)
		seen[t] = true
	}
	out := []string{}
	for _, t := range HygieneTags {
		if seen[t] {
			out = append(out, t)
		}
	}
	return out
}

func tagIndex(t string) int {
	for i, k := range HygieneTags {
		if k == t {
			return i
		}
	}
	return -1
}
