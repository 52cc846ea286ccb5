// saltnet's library entry point. The supervisor and scenario API arrive with their issues; today
// it exposes the simulator's binaries, a drop-in `--bin-dir` for tools that expect real Salvium.
export { SIM_BIN_DIR } from './sim/launch.js';
export { VERSION_LINE as SIM_VERSION_LINE } from './sim/common/version.js';
