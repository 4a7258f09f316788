/**
 * The predefined job types (docs/api.md, Job types): always available in every workspace, never stored, never
 * deletable. Their ids are readable and stable — jobs refer to them by id — so an entry may be
 * renamed or re-iconed, but an id must never be removed or reused for another kind of work.
 *
 * The API reference names `drone_inspection`, `thermal_inspection`, `3d_mapping`, `wind_turbine` and
 * `cell_tower` and leaves the rest open; the others cover the work an aerial-capture business
 * sells (energy, infrastructure, construction, real estate, agriculture, insurance, public
 * safety). Icons are names from the Lucide icon set (kebab-case, at most 20 characters), the set
 * the API reference's examples come from. The order here is the order GET /job-types lists them in.
 */
export interface JobTypeEntry {
  readonly id: string;
  readonly name: string;
  readonly icon: string;
}

export const PREDEFINED_JOB_TYPES: readonly JobTypeEntry[] = [
  { id: 'drone_inspection', name: 'Drone Inspection', icon: 'camera' },
  { id: 'thermal_inspection', name: 'Thermal Inspection', icon: 'thermometer' },
  { id: '3d_mapping', name: '3D Mapping', icon: 'box' },
  { id: 'orthomosaic_mapping', name: 'Orthomosaic Mapping', icon: 'map' },
  { id: 'lidar_survey', name: 'LiDAR Survey', icon: 'scan' },
  { id: 'wind_turbine', name: 'Wind Turbine', icon: 'wind' },
  { id: 'solar_farm', name: 'Solar Farm', icon: 'sun' },
  { id: 'power_line', name: 'Power Line', icon: 'zap' },
  { id: 'cell_tower', name: 'Cell Tower', icon: 'radio' },
  { id: 'bridge_inspection', name: 'Bridge Inspection', icon: 'landmark' },
  { id: 'pipeline_inspection', name: 'Pipeline Inspection', icon: 'fuel' },
  { id: 'roof_inspection', name: 'Roof Inspection', icon: 'home' },
  { id: 'construction_progress', name: 'Construction Progress', icon: 'hammer' },
  { id: 'stockpile_volume', name: 'Stockpile Volume', icon: 'database' },
  { id: 'road_survey', name: 'Road Survey', icon: 'traffic-cone' },
  { id: 'real_estate', name: 'Real Estate Media', icon: 'building' },
  { id: 'agriculture', name: 'Agriculture', icon: 'sprout' },
  { id: 'insurance_claim', name: 'Insurance Claim', icon: 'file-check' },
  { id: 'public_safety', name: 'Public Safety', icon: 'siren' },
  { id: 'video_production', name: 'Video Production', icon: 'video' },
];

const PREDEFINED_IDS = new Set(PREDEFINED_JOB_TYPES.map((t) => t.id));

export const isPredefinedJobType = (id: string) => PREDEFINED_IDS.has(id);
