"""PlanBench Logistics (`logistics-strips`): trucks, airplanes and packages; names such as
package_0 / location_1_0 map to p0 / l1-0. Replayed with VAL's semantics."""

from validators.planning import make_domain

DOMAIN = make_domain(
    "logistics",
    "PlanBench Logistics: STRIPS plan replay (VAL semantics), package_0/location_1_0 names understood",
)
