import OnairCommands

Onair.main()
