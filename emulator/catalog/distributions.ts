/**
 * Distributions. Current ones are listed by R14; older ones are still accepted on create and
 * reinstall but not listed (docs/rimuhosting-api.md, 7.3 Catalog listings: older distributions still exist but are not listed).
 */
import type { DistroInfo } from "../../contract/index.js";

export interface Distribution {
  code: string;
  description: string;
  listed: boolean;
  isPromoted: boolean;
  isRecommended: boolean;
  /** Disk the fresh image uses, in MB (drives host-move durations). */
  imageMb: number;
}

const current = (code: string, description: string, promoted = false, recommended = false): Distribution => ({
  code,
  description,
  listed: true,
  isPromoted: promoted,
  isRecommended: recommended,
  imageMb: 1800,
});
const legacy = (code: string, description: string): Distribution => ({
  code,
  description,
  listed: false,
  isPromoted: false,
  isRecommended: false,
  imageMb: 900,
});

export const DISTRIBUTIONS: readonly Distribution[] = [
  current("deb13.64", "Debian 13 64-bit (aka Trixie)", true, false),
  current("deb12.64", "Debian 12 64-bit (aka Bookworm)", true, true),
  current("ubuntu2404.64", "Ubuntu 24.04 64-bit (aka Noble Numbat, LTS)", true, true),
  current("ubuntu2204.64", "Ubuntu 22.04 64-bit (aka Jammy Jellyfish, LTS)"),
  current("alma9.64", "AlmaLinux 9 64-bit"),
  current("rocky9.64", "Rocky Linux 9 64-bit"),
  current("coreos.64", "Fedora CoreOS 64-bit (configure with cloud_config_data)"),
  legacy("deb11.64", "Debian 11 64-bit (aka Bullseye)"),
  legacy("deb10.64", "Debian 10 64-bit (aka Buster)"),
  legacy("ubuntu2004.64", "Ubuntu 20.04 64-bit (aka Focal Fossa, LTS)"),
  legacy("ubuntu1004.64", "Ubuntu 10.04 64-bit (aka Lucid Lynx, LTS)"),
  legacy("ubuntu910.64", "Ubuntu 9.10 64-bit (aka Karmic Koala)"),
  legacy("ubuntu910", "Ubuntu 9.10 (aka Karmic Koala)"),
  legacy("ubuntu904", "Ubuntu 9.04 (aka Jaunty Jackalope)"),
  legacy("ubuntu810", "Ubuntu 8.10 (aka Intrepid Ibex)"),
  legacy("ubuntu804.64", "Ubuntu 8.04 64-bit (aka Hardy Heron, LTS)"),
  legacy("ubuntu804", "Ubuntu 8.04 (aka Hardy Heron, LTS)"),
  legacy("centos6.64", "CentOS 6 64-bit"),
  legacy("centos5.64", "CentOS 5 64-bit"),
  legacy("centos5", "CentOS 5"),
  legacy("fedora12.64", "Fedora 12 64-bit"),
  legacy("fedora12", "Fedora 12"),
  legacy("fedora10", "Fedora 10"),
  legacy("lenny.64", "Debian 5.0 64-bit (aka Lenny)"),
  legacy("lenny", "Debian 5.0 (aka Lenny)"),
];

/** The distro a create gets when it names none. */
export const DEFAULT_DISTRO = "deb12.64";

const BY_CODE = new Map(DISTRIBUTIONS.map((d) => [d.code, d]));

export function findDistribution(code: string): Distribution | undefined {
  return BY_CODE.get(code);
}

export function toDistroInfo(d: Distribution): DistroInfo {
  return {
    distro_code: d.code,
    distro_description: d.description,
    is_promoted: d.isPromoted,
    is_recommended: d.isRecommended,
  };
}
