// Lifecycle: one VPS whose changes are all made in place, driven by stack config:
//
//   pulumi config set memoryMb 2048          # resize memory (the VPS restarts)
//   pulumi config set diskSpaceMb 40960      # grow the disk (it can only grow)
//   pulumi config set hostServerOid 835      # move to another host server (5-10 minutes per GB on the real service)
//   pulumi config set distro deb13.64        # reinstall: refused unless...
//   pulumi config set allowReinstall true    # ...you allow erasing the disk
//   pulumi config set runningState NOTRUNNING  # stop it (RUNNING starts it again)
//   pulumi config set adoptOrderOid 1234567    # manage an existing order instead of ordering one
//   pulumi up
import * as pulumi from "@pulumi/pulumi";
import { Vps } from "pulumi-rimuhosting";

const config = new pulumi.Config();

const app = new Vps("app", {
  domainName: config.get("domainName") ?? "app.lifecycle.example.com",
  dcLocation: "DCDALLAS",
  pricingPlanCode: "MIRO1B",
  distro: config.get("distro") ?? "deb12.64",
  memoryMb: config.getNumber("memoryMb") ?? 1024,
  diskSpaceMb: config.getNumber("diskSpaceMb") ?? 20480,
  // left out = wherever RimuHosting put it, never moved
  hostServerOid: config.get("hostServerOid"),
  allowReinstall: config.getBoolean("allowReinstall") ?? false,
  // left out = not managed: a VPS started or stopped by hand stays as it is
  runningState: config.get("runningState") as "RUNNING" | "NOTRUNNING" | undefined,
  adoptOrderOid: config.getNumber("adoptOrderOid"),
});

export const orderOid = app.orderOid;
export const ip = app.primaryIp;
export const hostServerOid = app.hostServerOid;
export const memoryMb = app.memoryMb;
export const diskSpaceMb = app.diskSpaceMb;
export const distro = app.distro;
export const runningState = app.runningState;
export const monthlyPriceUsd = app.monthlyFeeUsd;
