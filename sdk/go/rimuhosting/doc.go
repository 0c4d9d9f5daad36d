// RimuHosting VPS servers: order, resize, move, reinstall and cancel them through RimuHosting's API.
package rimuhosting
