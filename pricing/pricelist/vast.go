package pricelist

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/gpuplan/gpuplan/internal/text"
	"github.com/gpuplan/gpuplan/pricing"

	"github.com/shopspring/decimal"
)

// VastProvider is the Provider of the offers ReadVast reads.
const VastProvider = "vast.ai"

// vastPricePlaces is the number of decimal places ReadVast keeps of a price:
// vast.ai writes dph_total as a binary float's shortest decimal
// (0.3466666666666667), whose digits past the sixth place are the float's noise.
const vastPricePlaces = 6

// vastOffer holds the fields of a vast.ai offer that ReadVast reads. Numbers
// stay text (json.Number), so that no price passes through a float.
type vastOffer struct {
	ID           json.Number `json:"id"`
	MachineID    json.Number `json:"machine_id"`
	GPUName      string      `json:"gpu_name"`
	NumGPUs      json.Number `json:"num_gpus"`
	GPURAM       json.Number `json:"gpu_ram"`
	CPURAM       json.Number `json:"cpu_ram"`
	GPUFrac      json.Number `json:"gpu_frac"`
	DPHTotal     json.Number `json:"dph_total"`
	Reliability2 json.Number `json:"reliability2"`
	Reliability  json.Number `json:"reliability"`
	Geolocation  string      `json:"geolocation"`
	Verification string      `json:"verification"`
}

// ReadVast reads the offers of the vast.ai marketplace as `vastai search
// offers --raw` prints them: a JSON array of offer objects (or the API's
// {"offers": [...]}). Each is one machine's GPUs, rented together: an offer with
// GPUsPerInstance and MaxGPUs both num_gpus, its Tariff the machine's dph_total in
// USD per hour (rounded half up to 6 decimal places, as the float it is written
// as carries no more), Provider VastProvider, Region the geolocation, the card
// gpu_name with its memory (gpu_ram, in MB as nvidia-smi reports MiB: "RTX 4090"
// with 24564 becomes "RTX 4090 24GB"), and Line the line the object starts on.
//
// vast.ai's reliability score (reliability2, else reliability: a fraction from 0
// to 1 that vast.ai derives from the machine's uptime record) becomes an
// estimate of InterruptionsPerDay, stated as such in Notes: the score is read as
// the chance of a day without an interruption, so that with interruptions as a
// Poisson process the rate is −ln(reliability) a day (0.99 gives 0.01005 a day,
// 0.9 gives 0.105). vast.ai does not publish how the score is computed; the
// estimate is a reading of it, not the provider's figure. Without a score the
// rate is zero (unknown) and Notes says so.
//
// HostMemory is the offer's share of the machine's RAM (cpu_ram, in MiB, times
// gpu_frac when given) over its GPUs; zero without cpu_ram.
//
// Other fields are ignored (vast.ai's offers carry over a hundred and add more).
// An offer without gpu_name, with num_gpus not a whole number of at least one, a
// missing, malformed, zero or negative dph_total, or a reliability outside 0 to 1
// is an error naming its line, a *ParseError wrapping pricing.ErrInvalid. The
// bounds and checks of ReadJSON apply.
func ReadVast(r io.Reader) ([]pricing.Offer, error) {
	return readJSON(r, "vast.ai offers", true, func(raw json.RawMessage, line int) (pricing.Offer, error) {
		var v vastOffer
		if err := json.Unmarshal(raw, &v); err != nil {
			var te *json.UnmarshalTypeError
			if errors.As(err, &te) {
				return pricing.Offer{}, &cellError{te.Field, "", invalidf("want %s, got a JSON %s", te.Type, te.Value)}
			}
			return pricing.Offer{}, invalidf("%s", text.Cut(err.Error(), 200))
		}
		o, err := v.offer()
		if err != nil {
			return o, err
		}
		o.Line = line
		if err := o.Validate(); err != nil {
			var fe *pricing.FieldError
			if errors.As(err, &fe) && fe.Field == "tariff.hourly" {
				return o, &cellError{"dph_total", v.DPHTotal.String(), fe}
			}
			return o, err
		}
		return o, nil
	})
}

// offer turns a vast.ai offer into an Offer; an error is a *cellError naming
// the field.
func (v vastOffer) offer() (pricing.Offer, error) {
	name := strings.TrimSpace(v.GPUName)
	if name == "" {
		return pricing.Offer{}, &cellError{"gpu_name", "", invalidf("no GPU name")}
	}
	n, err := strconv.Atoi(v.NumGPUs.String())
	if err != nil || n < 1 || n > 1_000_000 {
		return pricing.Offer{}, &cellError{"num_gpus", v.NumGPUs.String(), invalidf("want a whole number of GPUs, 1 or more")}
	}
	card := name
	if s := v.GPURAM.String(); s != "" {
		mb, err := strconv.ParseFloat(s, 64)
		if err != nil || math.IsNaN(mb) || mb < 0 || mb > 1<<30 {
			return pricing.Offer{}, &cellError{"gpu_ram", s, invalidf("want the GPU's memory in MB")}
		}
		if gb := memoryGB(mb); gb > 0 && !statesMemory(name) { // a size that rounds to 0 GB says nothing
			card = name + " " + strconv.FormatInt(gb, 10) + "GB"
		}
	}
	ram, err := v.hostMemory(n)
	if err != nil {
		return pricing.Offer{}, err
	}
	price, err := vastPrice(v.DPHTotal.String())
	if err != nil {
		return pricing.Offer{}, &cellError{"dph_total", v.DPHTotal.String(), err}
	}
	o := pricing.Offer{
		Provider: VastProvider, Region: strings.TrimSpace(v.Geolocation), Card: card,
		MaxGPUs: n, GPUsPerInstance: n, HostMemory: ram,
		Tariff: pricing.Tariff{Currency: "USD", Hourly: price},
	}
	notes := "offer " + v.ID.String()
	if m := v.MachineID.String(); m != "" {
		notes += " on machine " + m
	}
	if v.Verification != "" {
		notes += ", " + v.Verification
	}
	rel, relField := v.Reliability2, "reliability2"
	if rel == "" {
		rel, relField = v.Reliability, "reliability"
	}
	if rel == "" {
		o.Notes = notes + "; no reliability score: interruption rate unknown"
		return o, nil
	}
	r, err := strconv.ParseFloat(rel.String(), 64)
	if err != nil || !(r > 0 && r <= 1) {
		return pricing.Offer{}, &cellError{relField, rel.String(), invalidf("want a reliability above 0 and at most 1")}
	}
	o.InterruptionsPerDay = -math.Log(r)
	if o.InterruptionsPerDay == 0 {
		o.InterruptionsPerDay = 0 // −ln(1) is −0
	}
	o.Notes = fmt.Sprintf("%s; reliability %s: about %.3g interruptions a day, an estimate read from the score as -ln(reliability)",
		notes, rel.String(), o.InterruptionsPerDay)
	return o, nil
}

// hostMemory is the host RAM that comes with each of the offer's n GPUs, in
// bytes: cpu_ram (the machine's RAM, in MiB as the host reports it) times
// gpu_frac (the share of the machine's GPUs the offer rents; vast.ai gives such
// an offer the same share of the cores, cpu_cores_effective, and the RAM is read
// as shared alike) over n; zero without cpu_ram. An error is a *cellError naming
// the field.
func (v vastOffer) hostMemory(n int) (int64, error) {
	s := v.CPURAM.String()
	if s == "" {
		return 0, nil
	}
	mib, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(mib) || mib < 0 || mib > 1<<40 {
		return 0, &cellError{"cpu_ram", s, invalidf("want the machine's RAM in MB")}
	}
	share := 1.0
	if f := v.GPUFrac.String(); f != "" {
		if share, err = strconv.ParseFloat(f, 64); err != nil || !(share > 0 && share <= 1) {
			return 0, &cellError{"gpu_frac", f, invalidf("want a share of the machine's GPUs above 0 and at most 1")}
		}
	}
	bytes := mib * (1 << 20) * share / float64(n)
	if bytes > pricing.MaxHostMemory {
		return 0, &cellError{"cpu_ram", s, invalidf("over %d GiB a GPU", pricing.MaxHostMemory>>30)}
	}
	return int64(math.Round(bytes)), nil
}

// vastPrice reads dph_total, a JSON number, exactly from its text and rounds it
// half up to vastPricePlaces places. A positive price is required.
func vastPrice(s string) (decimal.Decimal, error) {
	if s == "" {
		return decimal.Decimal{}, invalidf("no price")
	}
	// A JSON number's text: the exponent is bounded before decimal reads it, so
	// that 1e-2000000000 cannot make rounding slow.
	if len(s) > 40 {
		return decimal.Decimal{}, invalidf("a price of %d characters", len(s))
	}
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		e, err := strconv.Atoi(s[i+1:])
		if err != nil || e < -30 || e > 15 {
			return decimal.Decimal{}, invalidf("a price out of range")
		}
	}
	d, err := decimal.NewFromString(s)
	if err != nil {
		return decimal.Decimal{}, invalidf("not a number")
	}
	d = d.Round(vastPricePlaces)
	if d.Sign() <= 0 {
		return decimal.Decimal{}, invalidf("want a price above zero")
	}
	return d, nil
}
