// Package kiosk is the app in kiosk mode: a tablet on a wall, paired to
// one location's form with a short code, showing the form full screen to
// one visitor after another. It resets itself after each submission and
// after inactivity, keeps the screen awake, queues everything offline
// for days (the queue lives in IndexedDB and survives reloads and app
// updates), reports itself alive, and is left only with its exit PIN.
package kiosk
