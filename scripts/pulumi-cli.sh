#!/usr/bin/env bash
# placeholder, rewritten below
