package gitea

// NetStatus is netStatus, for the external tests.
var NetStatus = netStatus
