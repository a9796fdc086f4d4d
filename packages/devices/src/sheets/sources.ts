/**
 * The documents the command sheets are taken from. Each form in a sheet names one of these and the place in
 * it. Nothing here was checked on hardware by this project; docs/decisions/0006-device-sheets.md says which
 * source wins where they disagree.
 */
export const SOURCES = {
  rtu5025Manual:
    'King Pigeon RTU5025 User Manual v1.5 (File No. RTU5025103), manualshive.com/ru/manual/king-pigeon/rtu5025-series/1969933',
  rtu5034Manual:
    'King Pigeon RTU5034 User Manual v1.7 (File No. RTU5034103), manualshive.com/en/manual/king-pigeon/rtu5034/1969970',
  k6sManual: 'King Pigeon K6S User Manual, manualshive.com/ru/manual/king-pigeon/k6s/1969946',
  rtu5023Manual: 'King Pigeon RTU5023/6/7/8/9 User Manual v2.5 (2020-12-15), manuzoid.com',
  rtu5024HashManual:
    'RTU5024/RTU5035 User Manual (hash-style firmware), manualshive.com/en/manual/langjushan-tech/rtu5024/3550028',
  gateOpenerCommands: 'gate-opener.app/hardware/rtu5024/commands (third-party reference, unverified)',
  gateOpenerDefaultPassword: 'gate-opener.app/blog/rtu5024-default-password (third-party, unverified)',
  gateOpenerBlog: 'gate-opener.app/blog/rtu5024-sms-commands-explained (third-party, unverified)',
  gateOpenerTemporaryAccess: 'gate-opener.app/blog/temporary-gate-access-guide (third-party, unverified)',
  idealfitGsmRelay:
    "github.com/idealfit/gsm-relay, windows-ui/GSMRelayDesktop/ViewModels/MainViewModel.cs (SetupRelayAsync: the onboarding that sets a relay's date and time; public code that drives real units)",
  issue42:
    'Issue 42 of this project (a third-party page quoted there; the page was not re-found by this project)',
  production:
    'The first production deployment of this product, run with real RTU5025 units (its device configs, quoted in issue 10)',
  telemetricaT80: 'Telemetrica T80 SMS command list, support.telemetrica.ru (category 7)',
  simpalT40: 'SimPal T40 manual, mcgrp.ru/files/viewer/913418 p. 10 (same #nn# command family)',
  designMd: 'shared/DESIGN.md (this product’s design record)',
  issue30:
    'Issue 30 of this project (its reading of public code that drives real RTU units; the repository is not named there and was not re-found by this project)',
  badodoG200:
    'Badodo G200 GSM/3G Gate Controller manual, manualshive.com/en/manual/badodosecurity/g200/3392661',
  callnyG202:
    'gate-opener.app/hardware/callny-g202/commands (third-party reference for the Callny G202, a controller with the same hash-style language; unverified)',
  callnyG203:
    'gate-opener.app/hardware/callny-g203/commands (third-party reference for the Callny G203, the same 33 commands as its G202 page; unverified)',
  callnyBlog:
    'gate-opener.app/blog/callny-g202-sms-commands-explained (third-party, "Callny G202 SMS Commands: The Complete Reference", G202 PLUS and G203; unverified)',
  eldesEsim120:
    'ELDES Gate Controller ESIM120/ESIM320 User Manual (EN), esmanual.top/manual/628092/Eldes-Esim120.html',
  eldesEsim320:
    'ELDES Gate Controller ESIM120/ESIM320/ESIM320US User Manual v1.1 (valid for v21.05.00 and up), scribd.com/document/748812510',
  tellGc20Quick:
    'TELL GSM Gate Control 20 Quick guide, manualslib.de/manual/753430/Tell-Gate-Control-20.html',
  tellGc20Manual:
    'TELL GSM Gate Control 20 Installation and application manual v1.1 (08.10.2012, module V1.0 and higher), manuals.online/tell/gateway/gsm-gate-control-20/user-guide/1hadu',
  tellBase1000Manual:
    'TELL Gate Control BASE 1000 Installation and application manual 6.0 (device v10.00), manualshive.com/ru/manual/tell/gate-control-base-1000-series/1083878',
  tellPro1000Manual:
    'TELL GSM Gate Control Pro 20 / Pro 1000 Installation and application manual v1.21 (24.08.2017), manualmachine.com/tell/gsmgatecontrolpro1000/22199265',
  simpalFamily:
    'SimPal-family reply quoted in issue 30 of this project ("Family number has been deleted."); the document itself was not re-read',
  rtu5020Manual:
    'King Pigeon RTU5020 Remote Relay Switch User Manual v1.3, easymanua.ls/king-pigeon/rtu5020/manual?p=8',
  iqsdGsmManual:
    'NETCONS IQSocket DIN IQSD-GSM User Manual (2009), manualshive.com/ru/manual/socket/iqsocket-din-iqsd-gsm/1311076',
} as const;

export const cite = (source: keyof typeof SOURCES, place: string): string => `${SOURCES[source]}, ${place}`;
